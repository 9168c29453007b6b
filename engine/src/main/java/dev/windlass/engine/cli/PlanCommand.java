package dev.windlass.engine.cli;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.engine.reconcile.ClusterFleet;
import dev.windlass.engine.reconcile.Preview;
import dev.windlass.engine.reconcile.RecordedFleet;
import dev.windlass.engine.reconcile.RoutedFleet;
import dev.windlass.engine.review.ReviewPlanning;
import dev.windlass.engine.review.ReviewTarget;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.review.ReviewInput;
import dev.windlass.policy.review.ReviewMarkdown;
import java.util.Map;
import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.Mirror;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.render.PlanDocument;
import dev.windlass.policy.render.PlanMarkdown;
import dev.windlass.policy.state.EngineState;
import dev.windlass.engine.reconcile.SandboxSupply;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "plan", description = {"Print the plan a branch or commit would cause, without applying anything.",
        "With --head: the review of a branch, i.e. the plan of merging it into --base, as posted on its pull request.",
        "Actions for clusters with server-side apply are dry-run on the API server, which shows its own validation errors.",
        "Exit 0: no changes, 1: changes, 2: error (invalid config, rejected by a server, a merge conflict, or no such ref)."})
final class PlanCommand implements Callable<Integer> {
    enum Format { md, yaml, json }

    @Mixin RepoOptions repo;

    @Option(names = "--ref", defaultValue = "main", description = "branch or commit to plan (default: ${DEFAULT-VALUE})")
    String ref;

    @Option(names = {"-o", "--output"}, defaultValue = "md", description = "md, yaml or json (default: ${DEFAULT-VALUE})")
    Format output;

    @Option(names = "--head", description = "review this branch or commit: plan its merge into --base")
    String head;

    @Option(names = "--base", defaultValue = "main", description = "the branch --head is merged into (default: ${DEFAULT-VALUE})")
    String base;

    @Option(names = "--kubeconfig-dir", paramLabel = "DIR",
            description = "the only directory Cluster kubeconfig paths may point into (default: the working directory)")
    Path kubeconfigDir;

    @Option(names = "--comment", description = "with --head: print exactly the pull request comment (hidden marker included)")
    boolean comment;

    @picocli.CommandLine.Mixin RenderOptions renderOptions;

    @Spec CommandSpec spec;

    private Path confined() { return (kubeconfigDir != null ? kubeconfigDir : Path.of("")).toAbsolutePath(); }

    @Override public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (comment && head == null) {
            err.println("--comment needs --head: it prints the pull request comment for a branch");
            return 2;
        }
        try (Mirror mirror = repo.openMirror()) {
            mirror.fetch();
            if (head != null) return review(mirror, out, err);
            String sha = mirror.resolve(ref).orElse(null);
            if (sha == null) {
                err.println("no branch or commit '" + ref + "' in " + repo.repo);
                return 2;
            }
            StatusWriter status = repo.statusWriter(mirror);
            EngineState state = StatusFiles.read(new TreeMap<>(status.readStatusFiles("status/")));
            // One observation: a watch would outlive its use.
            ClusterClients clients = new ClusterClients(ClientSettings.DEFAULT.withoutWatches().confinedTo(confined()));
            try (SandboxSupply unused = SandboxSupply.none();
                 ClusterFleet live = new ClusterFleet(clients, new Applier(clients), unused);
                 RecordedFleet recorded = new RecordedFleet(mirror, state)) {
                Preview.Result r = Preview.of(mirror.snapshot(sha), state, live, recorded, Instant.now());
                out.print(switch (output) {
                    case md -> PlanMarkdown.render(r.plan(), ref, r.dryRun());
                    case yaml -> PlanDocument.yaml(r.plan(), r.dryRun());
                    case json -> PlanDocument.json(r.plan(), r.dryRun());
                });
                out.flush();
                if (r.usedRecordedState()) err.println("note: sandbox clusters were planned from the status branch's record, not observed live");
                if (r.plan().hasErrors() || r.rejectedByServer()) return 2;
                return r.plan().hasChanges() ? 1 : 0;
            }
        }
    }

    private int review(Mirror mirror, PrintWriter out, PrintWriter err) throws Exception {
        String baseSha = mirror.resolve(base).orElse(null);
        String headSha = mirror.resolve(head).orElse(null);
        if (baseSha == null || headSha == null) {
            err.println("no branch or commit '" + (baseSha == null ? base : head) + "' in " + repo.repo);
            return 2;
        }
        StatusWriter status = repo.statusWriter(mirror);
        EngineState state = StatusFiles.read(new TreeMap<>(status.readStatusFiles("status/")));
        DesiredState main = dev.windlass.engine.render.AppRendering.shared().read(mirror.snapshot(baseSha), state);
        String ref = head.startsWith("refs/pull/") && head.endsWith("/head") ? "pull/" + head.split("/")[2] : head;
        // One observation: a watch would outlive its use.
        ClusterClients clients = new ClusterClients(ClientSettings.DEFAULT.withoutWatches().confinedTo(confined()));
        try (SandboxSupply unused = SandboxSupply.none();
             ClusterFleet live = new ClusterFleet(clients, new Applier(clients), unused);
             RecordedFleet recorded = new RecordedFleet(mirror, state)) {
            RoutedFleet fleet = new RoutedFleet(live, recorded);
            Map<String, Cluster> clusters = new TreeMap<>(main.clusters());
            fleet.connect(clusters);
            ReviewInput in = ReviewPlanning.plan(mirror, base, baseSha, main, new ReviewTarget(ref, head, 0, headSha), state, fleet, Instant.now());
            if (in == null) {
                out.println(head + " is already part of " + base + ": nothing to review");
                return 0;
            }
            out.print(comment ? ReviewMarkdown.comment(in) : switch (output) {
                case md -> ReviewMarkdown.render(in);
                case yaml -> dev.windlass.policy.review.ReviewDocument.yaml(in);
                case json -> dev.windlass.policy.review.ReviewDocument.json(in);
            });
            out.flush();
            if (fleet.usesRecord(clusters.keySet())) err.println("note: sandbox clusters were planned from the status branch's record, not observed live");
            if (in.failing()) return 2;
            return in.headPlan().hasChanges() || !in.headPlan().held().isEmpty() ? 1 : 0;
        }
    }
}
