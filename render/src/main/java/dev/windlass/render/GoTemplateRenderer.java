package dev.windlass.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.parse.GoTemplates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders an Argo CD ApplicationSet's template with {@code goTemplate: true} by the project's windlass-gotemplate program
 * ({@link RenderTools#goTemplate()}, built pinned by {@code scripts/render-tools.sh} from
 * {@code render/src/main/go/windlass-gotemplate}): Go's text/template with sprig, composed as Argo CD composes them,
 * without {@code env}, {@code expandenv} and {@code getHostByName}. It runs behind the boundary every render runs behind
 * ({@link ToolRun}: the render sandbox with nothing to read but its own empty folder, an environment of its own, the time
 * and output limits), so a template that loops is stopped at the time limit, and one that prints too much at the output
 * limit (the program also fails a single text past {@value #MAX_TEXT_BYTES} bytes, and dies of its own memory limit);
 * each is an error for that ApplicationSet only. The same request gives the same answer without a run (kept in memory).
 */
public final class GoTemplateRenderer implements GoTemplates, AutoCloseable {
    static final int MAX_TEXT_BYTES = 1024 * 1024;
    private static final int CACHED = 256;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RenderTools tools;
    private final ToolRun runs;
    private final java.util.concurrent.atomic.AtomicLong toolRuns = new java.util.concurrent.atomic.AtomicLong();
    private final Map<String, Result> cache = new LinkedHashMap<>(CACHED, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Result> eldest) { return size() > CACHED; }
    };

    public GoTemplateRenderer(RenderTools tools, RenderLimits limits, RenderSandbox.Mode sandbox) {
        this.tools = tools;
        this.runs = new ToolRun(limits, new RenderSandbox(sandbox, tools));
    }

    /** A renderer with the tools, limits and sandbox every render of this engine has. */
    public static GoTemplateRenderer fromEnvironment() {
        return new GoTemplateRenderer(RenderTools.fromEnvironment(), RenderLimits.DEFAULT, RenderAccess.fromEnvironment().sandbox());
    }

    /** How many times windlass-gotemplate ran: requests that were not cached. */
    public long toolRuns() { return toolRuns.get(); }

    @Override public void close() { runs.stopAll(); }

    @Override public Result render(List<String> options, List<Map<String, Object>> params, List<String> templates) {
        byte[] request;
        try {
            Map<String, Object> in = new LinkedHashMap<>();
            in.put("options", options);
            in.put("params", params);
            in.put("templates", templates);
            in.put("maxBytes", MAX_TEXT_BYTES);
            request = JSON.writeValueAsBytes(in);
        } catch (IOException e) {
            return new Result.Stopped("its parameters cannot be given to windlass-gotemplate as JSON (" + e.getClass().getSimpleName() + ")");
        }
        String key = ContentHash.sha256(new String(request, StandardCharsets.UTF_8));
        synchronized (cache) {
            Result known = cache.get(key);
            if (known != null) return known;
        }
        Result result = run(request);
        if (!(result instanceof Result.Stopped)) {
            synchronized (cache) {
                cache.put(key, result);
            }
        }
        return result;
    }

    private Result run(byte[] request) {
        String missing = RenderTools.missing(tools.goTemplate());
        if (missing != null) return new Result.Stopped(missing);
        Path work;
        try {
            work = Files.createTempDirectory("windlass-gotemplate-");
        } catch (IOException e) {
            return new Result.Stopped("cannot make a directory to run windlass-gotemplate in (" + e.getClass().getSimpleName() + ")");
        }
        try {
            Path home = Files.createDirectories(work.resolve("home"));
            toolRuns.incrementAndGet();
            ToolRun.Outcome outcome = runs.run(List.of(tools.goTemplate().toString()), work, work, home, Map.of(), RenderSandbox.Reach.LOCAL, request);
            if (outcome.stopped() != null) return new Result.Stopped("windlass-gotemplate " + outcome.stopped() + "; a template that loops or"
                    + " prints without end is stopped: make it finish");
            if (outcome.exit() != 0) {
                return new Result.Stopped(outcome.stderr().contains("out of memory")
                        ? "windlass-gotemplate ran out of its memory (1 GiB): a template builds too much (a list of until N, say); make it smaller"
                        : "windlass-gotemplate failed (exit " + outcome.exit() + ")");
            }
            try {
                return answer(outcome.stdout());
            } catch (IOException e) {
                return new Result.Stopped("windlass-gotemplate printed something that is not its answer; run scripts/render-tools.sh again");
            }
        } catch (IOException e) {
            return new Result.Stopped("cannot prepare the run of windlass-gotemplate (" + e.getClass().getSimpleName() + ")");
        } finally {
            LiveRenders.delete(work);
        }
    }

    private static Result answer(String stdout) throws IOException {
        JsonNode out = JSON.readTree(stdout);
        JsonNode failed = out.get("failed");
        if (failed != null && failed.isObject()) {
            return new Result.Failed(failed.path("set").asInt(), failed.path("template").asInt(), failed.path("error").asText());
        }
        List<List<String>> texts = new ArrayList<>();
        for (JsonNode set : out.path("rendered")) {
            List<String> each = new ArrayList<>();
            for (JsonNode t : set) each.add(t.asText());
            texts.add(each);
        }
        return new Result.Rendered(texts);
    }
}
