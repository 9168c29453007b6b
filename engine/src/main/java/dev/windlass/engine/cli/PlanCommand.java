package dev.windlass.engine.cli;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.engine.reconcile.ClusterFleet;
import dev.windlass.engine.reconcile.Preview;
import dev.windlass.engine.reconcile.RecordedFleet;
import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.Mirror;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.render.PlanDocument;
import dev.windlass.policy.render.PlanMarkdown;
import dev.windlass.policy.state.EngineState;
import dev.windlass.sandbox.Sandbox;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "plan", description = {"Print the plan a branch or commit would cause, without applying anything.",
        "Actions for clusters with server-side apply are dry-run on the API server, which shows its own validation errors.",
        "Exit 0: no changes, 1: changes, 2: error (invalid config, rejected by a server, or no such ref)."})
final class PlanCommand implements Callable<Integer> {
    enum Format { md, yaml, json }

    @Mixin RepoOptions repo;

    @Option(names = "--ref", defaultValue = "main", description = "branch or commit to plan (default: ${DEFAULT-VALUE})")
    String ref;

    @Option(names = {"-o", "--output"}, defaultValue = "md", description = "md, yaml or json (default: ${DEFAULT-VALUE})")
    Format output;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Mirror mirror = repo.openMirror()) {
            mirror.fetch();
            String sha = mirror.resolve(ref).orElse(null);
            if (sha == null) {
                err.println("no branch or commit '" + ref + "' in " + repo.repo);
                return 2;
            }
            StatusWriter status = repo.statusWriter(mirror);
            EngineState state = StatusFiles.read(new TreeMap<>(status.readStatusFiles("status/")));
            ClusterClients clients = new ClusterClients();
            try (Sandbox unused = new Sandbox();
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
}
