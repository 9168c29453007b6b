package dev.windlass.render;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.source.KustomizeReach;
import dev.windlass.policy.source.Reach;
import dev.windlass.policy.source.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders with the real tools, cached by what a render reads: the tools' versions, the request (values and cluster
 * capabilities included) and the path and content id of every file it can see (see {@link KustomizeReach}). The
 * files are written out into a directory of their own for each run, so the tool sees the repo's files it reaches and
 * nothing else of the repo, and the tool runs in the render sandbox ({@link RenderSandbox}), so it reads nothing else of
 * the host either. A render that fails, runs too long or prints too much is a {@link RenderResult.Failed}, never an
 * exception. A render that fetches (a chart from a repository or registry, remote bases) and failed is tried again after
 * a backoff, not kept failed: its source may come back.
 */
public final class Renderer implements AutoCloseable {

    private static final int CACHED = 512;
    /** A failed render that fetches is tried again after this, doubling with each failure up to {@link #RETRY_MAX}. */
    static final java.time.Duration RETRY_FIRST = java.time.Duration.ofSeconds(10);
    static final java.time.Duration RETRY_MAX = java.time.Duration.ofMinutes(5);

    private final RenderTools tools;
    private final RenderLimits limits;
    private final RenderAccess access;
    private final java.time.Duration retryFirst;
    private final ToolRun runs;
    /** By cache key, the failed renders that fetch: how often they failed in a row and when to try again. */
    private final Map<String, Retry> retries = new java.util.concurrent.ConcurrentHashMap<>();

    private record Retry(int failures, long atNanos) {}
    private final AtomicLong toolRuns = new AtomicLong();
    private static final Pattern GIT_COMMIT = Pattern.compile("[0-9a-f]{40}([0-9a-f]{24})?");

    /** Renders by key, the least recently used first; at most {@link #CACHED} of them, and at most twice the limits' total of text. */
    private final LinkedHashMap<String, Cached> cache = new LinkedHashMap<>(CACHED, 0.75f, true);

    /** A render kept, and the length of its text. */
    private record Cached(RenderResult result, long chars) {
        static Cached of(RenderResult r) { return new Cached(r, r instanceof RenderResult.Rendered ok ? ok.yaml().length() : 0); }
    }
    private long cachedChars;  // guarded by cache
    /** Renders running now, by key. Guarded by cache. */
    private final Map<String, CompletableFuture<RenderResult>> inFlight = new java.util.HashMap<>();
    private final Map<String, Reached> reaches = new LinkedHashMap<>(CACHED, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Reached> eldest) { return size() > CACHED; }
    };

    public Renderer(RenderTools tools, RenderLimits limits) { this(tools, limits, RenderAccess.DEFAULT); }

    public Renderer(RenderTools tools, RenderLimits limits, RenderAccess access) { this(tools, limits, access, RETRY_FIRST); }

    Renderer(RenderTools tools, RenderLimits limits, RenderAccess access, java.time.Duration retryFirst) {
        this.tools = tools;
        this.limits = limits;
        this.retryFirst = retryFirst;
        this.access = access;
        this.runs = new ToolRun(limits, new RenderSandbox(access.sandbox(), tools));
    }

    /** Stops the renders this renderer runs now (a closing engine leaves no tool behind); their renders fail. */
    @Override public void close() { runs.stopAll(); }

    /** The limits renders run within. */
    public RenderLimits limits() { return limits; }

    /** How many times a tool was run: renders that were not in the cache. */
    public long toolRuns() { return toolRuns.get(); }

    /**
     * The key {@code request}'s render is cached by, or null when it would be refused before any tool runs: what a caller
     * may remember a render by without keeping its text.
     */
    public String keyOf(Snapshot snapshot, RenderRequest request) {
        Reached reached = reached(snapshot, request);
        if (!reached.reach().problems().isEmpty()) return null;
        return ContentHash.sha256(tools.versions() + "\n" + request + "\n" + reached.digest());
    }

    /** Lets the text of the render cached as {@code key} go: its caller will not use it. */
    public void forget(String key) {
        synchronized (cache) {
            Cached gone = cache.remove(key);
            if (gone != null) cachedChars -= gone.chars();
        }
    }

    /** The render of {@code request}, waited for. */
    public RenderResult render(Snapshot snapshot, RenderRequest request) { return start(snapshot, request).join(); }

    /**
     * The render of {@code request}: done at once when it is cached or refused, else running beside the caller (or
     * already running, started by an earlier caller: a render is never run twice at once). The files it reads are
     * written out before this returns, so the snapshot need not outlive the call; the tool runs on a thread of its own,
     * so a caller may go on without it and find the result cached later.
     */
    public CompletableFuture<RenderResult> start(Snapshot snapshot, RenderRequest request) {
        Reached reached = reached(snapshot, request);
        String start = startingFile(snapshot, request);
        if (!reached.reach().problems().isEmpty()) return CompletableFuture.completedFuture(failed(start, String.join("; ", reached.reach().problems())));
        List<String> remotes = remotes(request, reached.reach());
        for (String remote : remotes) {
            // A chart from a mirror is fetched from the operator's address, not the repo's: nothing to refuse.
            if (request instanceof RenderRequest.Helm && access.mirrors().of(remote).mirrored()) continue;
            String refused = RemoteHosts.refusal(remote, access.privateHosts());
            if (refused != null) return CompletableFuture.completedFuture(new RenderResult.Failed(start, refused));
        }
        String key = ContentHash.sha256(tools.versions() + "\n" + request + "\n" + reached.digest());
        synchronized (cache) {
            Cached kept = cache.get(key);
            RenderResult known = kept == null ? null : kept.result();
            Retry retry = retries.get(key);
            if (known != null && (retry == null || System.nanoTime() - retry.atNanos() < 0)) return CompletableFuture.completedFuture(known);
            CompletableFuture<RenderResult> running = inFlight.get(key);
            if (running != null) return running;
        }
        Object prepared = prepare(snapshot, request, reached.reach(), start, key, remotes.isEmpty() ? RenderSandbox.Reach.LOCAL
                : request instanceof RenderRequest.Kustomize ? RenderSandbox.Reach.NETWORK_AND_GIT : RenderSandbox.Reach.NETWORK);
        if (prepared instanceof RenderResult.Failed f) return CompletableFuture.completedFuture(f);
        Prepared run = (Prepared) prepared;
        CompletableFuture<RenderResult> future = new CompletableFuture<>();
        synchronized (cache) {
            CompletableFuture<RenderResult> running = inFlight.putIfAbsent(key, future);
            if (running != null) {
                LiveRenders.delete(run.work());
                return running;
            }
        }
        RUNNERS.execute(() -> {
            RenderResult result;
            try {
                result = execute(run);
            } catch (RuntimeException | Error e) {
                // Out of memory among them: the render fails, and whoever waits for it is told, rather than waiting forever.
                result = new RenderResult.Failed(start, "the render failed (" + e.getClass().getSimpleName() + ")");
            }
            synchronized (cache) {
                remember(key, result);
                if (result instanceof RenderResult.Failed && !remotes.isEmpty()) {
                    int failures = retries.containsKey(key) ? retries.get(key).failures() + 1 : 1;
                    long wait = Math.min(RETRY_MAX.toNanos(), retryFirst.toNanos() << Math.min(failures - 1, 20));
                    retries.put(key, new Retry(failures, System.nanoTime() + wait));
                } else {
                    retries.remove(key);
                }
                inFlight.remove(key);
            }
            future.complete(result);
        });
        return future;
    }

    /** The threads renders run on, beside the pass: as many as wait, each mostly waiting for its tool. */
    private static final java.util.concurrent.ExecutorService RUNNERS = java.util.concurrent.Executors.newCachedThreadPool(task -> {
        Thread t = new Thread(task, "windlass-render");
        t.setDaemon(true);
        return t;
    });

    /** Keeps {@code result}, and lets the least recently used go while there are too many, or too much text. Guarded by cache. */
    private void remember(String key, RenderResult result) {
        Cached now = Cached.of(result);
        Cached old = cache.put(key, now);
        cachedChars += now.chars() - (old == null ? 0 : old.chars());
        var eldest = cache.entrySet().iterator();
        // Twice a commit's share: the renders a commit uses, and those of the commits just before it.
        while (cache.size() > 1 && (cache.size() > CACHED || cachedChars > 2 * limits.maxTotalBytes()) && eldest.hasNext()) {
            var e = eldest.next();
            if (e.getKey().equals(key)) continue;
            cachedChars -= e.getValue().chars();
            eldest.remove();
        }
    }


    /** The remote sources a render fetches from: a chart's repository or registry, a kustomization's remote bases. */
    private static List<String> remotes(RenderRequest request, Reach reach) {
        if (request instanceof RenderRequest.Helm h) {
            if (h.chart() instanceof RenderRequest.Chart.Repository r) return List.of(r.url());
            if (h.chart() instanceof RenderRequest.Chart.Oci o) return List.of(o.reference());
            return List.of();
        }
        return reach.remotes();
    }

    /** The files of the snapshot a render of {@code request} reads, by path and content id: what its output depends on. */
    public SortedMap<String, String> reads(Snapshot snapshot, RenderRequest request) { return reached(snapshot, request).reach().files(); }

    /** What a render reaches, and a digest of those files' paths and content ids. */
    private record Reached(Reach reach, String digest) {}

    /**
     * What {@code request} reaches in {@code snapshot}. Worked out once per Git commit (a commit never changes, so an
     * idle pass reads no kustomization again); every time for other snapshots (a folder on disk).
     */
    private Reached reached(Snapshot snapshot, RenderRequest request) {
        String commit = snapshot.commit();
        String where = commit != null && GIT_COMMIT.matcher(commit).matches() ? commit + "\n" + place(request) : null;
        if (where != null) {
            synchronized (reaches) {
                Reached known = reaches.get(where);
                if (known != null) return known;
            }
        }
        Reach reach = reach(snapshot, request);
        StringBuilder files = new StringBuilder();
        reach.files().forEach((p, id) -> files.append(p).append(' ').append(id).append('\n'));
        Reached reached = new Reached(reach, ContentHash.sha256(files.toString()));
        if (where != null) {
            synchronized (reaches) {
                reaches.put(where, reached);
            }
        }
        return reached;
    }

    /** What of a request decides which files it reads: the Kustomize folder or the chart, never the values. */
    private static String place(RenderRequest request) {
        if (request instanceof RenderRequest.Kustomize k) return "kustomize " + k.folder() + " " + k.allowRemoteBases();  // access is the renderer's own
        return "helm " + ((RenderRequest.Helm) request).chart();
    }

    private Reach reach(Snapshot snapshot, RenderRequest request) {
        if (request instanceof RenderRequest.Kustomize k) {
            return KustomizeReach.of(snapshot.files(), snapshot::read, k.folder(), k.allowRemoteBases() && access.remoteBases());
        }
        RenderRequest.Helm h = (RenderRequest.Helm) request;
        if (h.chart() instanceof RenderRequest.Chart.InRepo in) return new Reach(Reach.under(snapshot.files(), in.path()), List.of());
        return new Reach(new TreeMap<>(), List.of());
    }

    private static String startingFile(Snapshot snapshot, RenderRequest request) {
        if (request instanceof RenderRequest.Kustomize k) {
            String file = KustomizeReach.kustomization(snapshot.files(), k.folder());
            return file != null ? file : k.folder();
        }
        RenderRequest.Chart chart = ((RenderRequest.Helm) request).chart();
        if (chart instanceof RenderRequest.Chart.InRepo in) return in.path() + "/Chart.yaml";
        if (chart instanceof RenderRequest.Chart.Repository r) return r.url() + " " + r.name() + " " + r.version();
        RenderRequest.Chart.Oci o = (RenderRequest.Chart.Oci) chart;
        return o.reference() + " " + o.version();
    }

    /** A render ready to run: its folder written, its command and environment made. */
    private record Prepared(Path work, Path repo, Path home, List<String> command, Map<String, String> env, RenderSandbox.Reach reaches,
                            RenderRequest request, Reach reach, String start, String key) {}

    /** The render's folder with the files it reads, and its command: a {@link Prepared}, or a {@link RenderResult.Failed}. */
    private Object prepare(Snapshot snapshot, RenderRequest request, Reach reach, String start, String key, RenderSandbox.Reach reaches) {
        Path work;
        try {
            work = Files.createTempDirectory("windlass-render-");
        } catch (IOException e) {
            return new RenderResult.Failed(start, "cannot make a directory to render in (" + e.getClass().getSimpleName() + ")");
        }
        try {
            Path repo = Files.createDirectories(work.resolve("repo"));
            Path home = Files.createDirectories(work.resolve("home"));
            for (String path : reach.files().keySet()) {
                Path file = repo.resolve(path);
                Files.createDirectories(file.getParent());
                Files.write(file, snapshot.read(path));
            }
            List<String> command = new ArrayList<>();
            Map<String, String> env = new LinkedHashMap<>();
            if (request instanceof RenderRequest.Kustomize k) {
                String missing = RenderTools.missing(tools.kustomize());
                if (missing != null) {
                    LiveRenders.delete(work);
                    return new RenderResult.Failed(start, missing);
                }
                command.addAll(List.of(tools.kustomize().toString(), "build", k.folder().isEmpty() ? "." : k.folder(),
                        "--load-restrictor", "LoadRestrictionsRootOnly"));
                if (RenderTools.missing(tools.helm()) == null) command.addAll(List.of("--enable-helm", "--helm-command", tools.helm().toString()));
            } else {
                RenderRequest.Helm h = (RenderRequest.Helm) request;
                String missing = RenderTools.missing(tools.helm());
                if (missing != null) {
                    LiveRenders.delete(work);
                    return new RenderResult.Failed(start, missing);
                }
                command.addAll(helm(h, work));
                env.put("HELM_CACHE_HOME", home.resolve("cache").toString());
                env.put("HELM_CONFIG_HOME", home.resolve("config").toString());
                env.put("HELM_DATA_HOME", home.resolve("data").toString());
            }
            return new Prepared(work, repo, home, command, env, reaches, request, reach, start, key);
        } catch (IOException e) {
            LiveRenders.delete(work);
            return new RenderResult.Failed(start, "cannot write the files to render (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** Runs a prepared render's tool, and deletes its folder. */
    private RenderResult execute(Prepared p) {
        try {
            toolRuns.incrementAndGet();
            List<String> command = p.command();
            if (p.request() instanceof RenderRequest.Helm h && h.chart() instanceof RenderRequest.Chart.Oci o && OciTags.isRange(o.version())) {
                Object tag = ociTag(p, o);
                if (tag instanceof RenderResult.Failed f) return f;
                command = new ArrayList<>(command);
                command.set(command.indexOf(VERSION_PICKED), (String) tag);
            }
            ToolRun.Outcome outcome = runs.run(command, p.work(), p.repo(), p.home(), p.env(), p.reaches());
            if (outcome.ok()) return new RenderResult.Rendered(outcome.stdout(), p.key());
            String tool = Path.of(p.command().get(0)).getFileName().toString();
            String said = (outcome.stopped() != null ? tool + " " + outcome.stopped() + (outcome.stderr().isBlank() ? "" : ": ") : "")
                    + inRepoTerms(outcome.stderr(), p.repo(), p.work());
            RenderResult.Failed failed = failed(p.start(), said.isBlank() ? tool + " exited with " + outcome.exit() : said);
            return p.request() instanceof RenderRequest.Helm h && h.chart() instanceof RenderRequest.Chart.InRepo in
                    ? inChart(failed, in.path(), p.reach()) : failed;
        } finally {
            LiveRenders.delete(p.work());
        }
    }

    /** Stands in a Helm command for the version {@link #ociTag} picks, before it has run. */
    private static final String VERSION_PICKED = "\0version-picked";

    /**
     * The tag of an OCI chart whose version is a range: crane lists the repository's tags, and {@link OciTags} picks one
     * as Flux would (Helm reads no tag that starts with {@code v}). A {@link RenderResult.Failed} when none can be had.
     */
    private Object ociTag(Prepared p, RenderRequest.Chart.Oci o) {
        String missing = RenderTools.missing(tools.crane());
        if (missing != null) return new RenderResult.Failed(p.start(), missing);
        ChartMirrors.Source from = access.mirrors().of(o.reference());
        List<String> list = new ArrayList<>(List.of(tools.crane().toString(), "ls"));
        if (from.plainHttp()) list.add("--insecure");
        list.add(from.address().substring("oci://".length()));
        ToolRun.Outcome listed = runs.run(list, p.work(), p.repo(), p.home(), p.env(), p.reaches());
        if (!listed.ok()) {
            String said = (listed.stopped() != null ? "crane " + listed.stopped() + (listed.stderr().isBlank() ? "" : ": ") : "")
                    + inRepoTerms(listed.stderr(), p.repo(), p.work());
            return new RenderResult.Failed(p.start(), "cannot list the tags of " + o.reference() + ": " + (said.isBlank() ? "crane exited with " + listed.exit() : said));
        }
        List<String> tags = listed.stdout().lines().map(String::strip).filter(t -> !t.isEmpty()).toList();
        String tag = OciTags.pick(tags, o.version());
        if (tag != null) return tag;
        String some = String.join(", ", tags.subList(Math.max(0, tags.size() - 10), tags.size()));
        return new RenderResult.Failed(p.start(), "no tag of " + o.reference() + " is a version in the range " + o.version()
                + (tags.isEmpty() ? "; it has no tags" : "; its tags include " + some));
    }

    private List<String> helm(RenderRequest.Helm h, Path work) throws IOException {
        List<String> command = new ArrayList<>(List.of(tools.helm().toString(), "template", h.releaseName()));
        if (h.chart() instanceof RenderRequest.Chart.InRepo in) command.add(in.path());
        else if (h.chart() instanceof RenderRequest.Chart.Repository r) {
            command.addAll(List.of(r.name(), "--repo", access.mirrors().of(r.url()).address(), "--version", r.version()));
        } else if (h.chart() instanceof RenderRequest.Chart.Oci o) {
            ChartMirrors.Source from = access.mirrors().of(o.reference());
            command.addAll(List.of(from.address(), "--version", OciTags.isRange(o.version()) ? VERSION_PICKED : o.version()));
            if (from.plainHttp()) command.add("--plain-http");
        }
        // Test hooks are Pods that `helm test` runs, often with random names: not part of what the chart installs.
        command.addAll(List.of("--namespace", h.namespace(), "--skip-tests"));
        if (!h.skipCrds()) command.add("--include-crds");
        if (!h.kubeVersion().isEmpty()) command.addAll(List.of("--kube-version", h.kubeVersion()));
        for (String v : h.apiVersions()) command.addAll(List.of("--api-versions", v));
        for (int i = 0; i < h.values().size(); i++) {
            Path values = Files.writeString(work.resolve("values-" + i + ".yaml"), h.values().get(i));
            command.addAll(List.of("-f", values.toString()));
        }
        return command;
    }

    /** The tool's own words, with the temporary directory it ran in taken out of the paths it names. */
    static String inRepoTerms(String said, Path repo, Path work) {
        return said.replace(repo.toString() + "/", "").replace(repo.toString(), ".").replace(work.toString() + "/", "")
                .replaceAll("(?m)^Error: ", "").replaceAll("(?m)^Use --debug flag to render out invalid YAML$", "").strip();
    }

    /**
     * Helm names a chart's files by the chart's name ({@code web/templates/cm.yaml}); said at the file of the repo it is
     * ({@code charts/web/templates/cm.yaml}) when that is one the render read.
     */
    static RenderResult.Failed inChart(RenderResult.Failed failed, String chartPath, Reach reach) {
        int slash = failed.at().indexOf('/');
        if (slash < 0) return failed;
        String inRepo = chartPath + failed.at().substring(slash);
        String file = inRepo.contains(":") ? inRepo.substring(0, inRepo.indexOf(':')) : inRepo;
        return reach.files().containsKey(file) ? new RenderResult.Failed(inRepo, failed.message()) : failed;
    }

    private static final Pattern AT = Pattern.compile("([\\w./-]+\\.(?:ya?ml|tpl|txt)):(\\d+)(?::(\\d+))?");

    /** Where the message points, when it names a file of the repo and a line; else where the render started. */
    static RenderResult.Failed failed(String start, String message) {
        Matcher m = AT.matcher(message);
        if (m.find()) return new RenderResult.Failed(m.group(1) + ":" + m.group(2) + ":" + (m.group(3) == null ? "1" : m.group(3)), message);
        return new RenderResult.Failed(start, message);
    }


}
