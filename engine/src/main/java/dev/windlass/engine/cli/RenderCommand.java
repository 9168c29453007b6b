package dev.windlass.engine.cli;

import dev.windlass.engine.render.AppRendering;
import dev.windlass.git.Mirror;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "render", description = "Print the objects an application applies to one cluster, as rendered from a commit"
        + " (Kustomize, Helm, variants and overrides included). Secret values are printed as (redacted).")
final class RenderCommand implements Callable<Integer> {
    @Mixin RepoOptions repo;

    @Parameters(index = "0", paramLabel = "APP") String app;

    @Option(names = "--cluster", paramLabel = "CLUSTER", description = "the cluster to render for (needed when the app could go to more than one)")
    String cluster;

    @Option(names = "--ref", defaultValue = "main", paramLabel = "REF", description = "branch, tag or commit to read (default: ${DEFAULT-VALUE})")
    String ref;

    @picocli.CommandLine.Mixin RenderOptions renderOptions;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DesiredState desired;
        try (Mirror mirror = repo.openMirror()) {
            mirror.fetch();
            String commit = mirror.resolve(ref).orElse(null);
            if (commit == null) {
                err.println("no branch, tag or commit '" + ref + "' in " + repo.repo);
                return 2;
            }
            // Charts render for each cluster's API server as the engine last recorded it, as the engine renders them.
            dev.windlass.policy.state.EngineState state = dev.windlass.engine.status.StatusFiles.read(
                    new java.util.TreeMap<>(repo.statusWriter(mirror).readStatusFiles("status/")));
            desired = AppRendering.shared().read(mirror.snapshot(commit), state);
        }
        Application a = desired.apps().get(app);
        if (a == null) {
            err.println("no application '" + app + "' at " + ref + (desired.apps().isEmpty() ? "" : "; there are: " + String.join(", ", desired.apps().keySet())));
            return 2;
        }
        List<Diagnostic> errors = a.diagnostics().stream().filter(Diagnostic::isError).toList();
        if (!errors.isEmpty()) {
            errors.forEach(err::println);
            err.println(app + " is invalid: nothing of it would be applied");
            return 1;
        }
        List<Manifest> objects;
        if (a.render() == null) {
            objects = a.manifests();
        } else {
            String target = cluster;
            if (target == null && a.variants().size() == 1) target = a.variants().keySet().iterator().next();
            if (target == null || !a.variants().containsKey(target)) {
                err.println((target == null ? "give --cluster" : "'" + target + "' is not a cluster " + app + " can be placed on")
                        + ": one of " + (a.variants().isEmpty() ? "(none)" : String.join(", ", a.variants().keySet())));
                return 2;
            }
            err.println("# " + app + " on " + target + ": variant " + a.variantOn(target) + ", revision " + a.revision());
            err.flush();
            objects = a.on(target).manifests();
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Yaml yaml = new Yaml(options);
        List<String> docs = new ArrayList<>();
        for (Manifest m : objects) {
            if (m.implicit()) continue;
            docs.add(yaml.dump(redacted(m.body())));
        }
        out.print(String.join("---\n", docs));
        out.flush();
        return 0;
    }

    /** A Secret with its values replaced: what the command prints may end up anywhere. */
    private static Map<String, Object> redacted(Map<String, Object> body) {
        if (!"Secret".equals(body.get("kind")) || !"v1".equals(body.get("apiVersion"))) return body;
        Map<String, Object> copy = new LinkedHashMap<>(body);
        for (String key : List.of("data", "stringData")) {
            if (copy.get(key) instanceof Map<?, ?> values) {
                Map<String, Object> hidden = new LinkedHashMap<>();
                values.keySet().forEach(k -> hidden.put(String.valueOf(k), "(redacted)"));
                copy.put(key, hidden);
            }
        }
        return copy;
    }
}
