package dev.windlass.dashboard;

import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.PreservedValue;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.RolloutState;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Views for the page tests: a config repo parsed by the real parser, and status as the engine records it. */
final class Views {
    static final Instant NOW = Instant.parse("2026-11-21T09:10:00Z");
    static final String SOURCE = "0000000000000000000000000000000000000001";

    private Views() {}

    static DesiredState repo(int extraApps) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("clusters/eu-1.yaml", cluster("eu-1", "region: eu\n    canary: \"true\""));
        files.put("clusters/us-1.yaml", cluster("us-1", "region: us\n    canary: \"false\""));
        files.put("apps/web/app.yaml", app("web", "tier: frontend"));
        files.put("apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n");
        files.put("apps/api/app.yaml", app("api", "tier: backend"));
        files.put("apps/api/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: api}\ndata: {a: b}\n");
        files.put("apps/broken/app.yaml", app("broken", "tier: backend"));
        files.put("apps/broken/manifests/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: broken}\nspec:\n  replicas: many\n");
        for (int i = 0; i < extraApps; i++) {
            String name = String.format("app-%04d", i);
            files.put("apps/" + name + "/app.yaml", app(name, "tier: bulk"));
            files.put("apps/" + name + "/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n");
        }
        files.put("policies/freeze.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Freeze
                metadata: {name: launch}
                spec:
                  applications: [api]
                  clusterNames: [us-1]
                  reason: "launch <b>week</b>"
                """);
        files.put("policies/year-end.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Freeze
                metadata: {name: year-end}
                spec:
                  schedule: "0 0 0 24 DEC ?"
                  duration: 72h
                """);
        files.put("policies/remediation.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: RemediationPolicy
                metadata: {name: control-plane}
                spec:
                  clusterSelector: {matchLabels: {region: eu}}
                  target: {apiVersion: v1, kind: Node, selector: {matchLabels: {node-role.kubernetes.io/control-plane: ""}}}
                  checks:
                    unhealthyConditions: [{type: Ready, status: "False", timeoutSeconds: 5}]
                  remediation: {quorum: true, action: Annotate}
                """);
        return RepoParser.parse(MapSnapshot.ofStrings(SOURCE, files));
    }

    static String cluster(String name, String labels) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata:\n  name: " + name + "\n  labels:\n    " + labels
                + "\nspec:\n  connection: {sandbox: {nodes: 3}}\n";
    }

    static String app(String name, String labels) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata:\n  name: " + name + "\n  labels:\n    " + labels
                + "\nspec:\n  namespace: " + name + "\n  placement: {clusterSelector: {matchLabels: {}}}\n";
    }

    static EngineState state(DesiredState desired, String webMessage) {
        Map<String, AppStatus> apps = new TreeMap<>();
        for (String app : desired.apps().keySet()) {
            List<TargetStatus> targets = List.of(
                    new TargetStatus("eu-1", "rev00001aaaa", dev.windlass.policy.state.Sync.Synced, dev.windlass.policy.state.Health.Healthy, "", List.of(), List.of(inv(app))),
                    new TargetStatus("us-1", "rev00001aaaa", dev.windlass.policy.state.Sync.Synced, dev.windlass.policy.state.Health.Healthy, "", List.of(), List.of(inv(app))));
            apps.put(app, new AppStatus(app, "apps/" + app + "/app.yaml", "rev00001aaaa", SOURCE, true, List.of(), List.of("eu-1", "us-1"),
                    targets, List.of()));
        }
        RolloutState rollout = new RolloutState("rev00002bbbb", SOURCE, "rev00001aaaa", SOURCE, "waves", "Healthy for 3s",
                RolloutState.Result.Progressing, "wave 2 of 2", 2, Instant.parse("2026-11-21T09:00:00Z"), null, List.of(
                new ClusterStep("eu-1", ClusterStep.State.Succeeded, 1, Instant.parse("2026-11-21T09:00:00Z"), Instant.parse("2026-11-21T09:02:00Z"), Instant.parse("2026-11-21T09:05:00Z"), null),
                new ClusterStep("us-1", ClusterStep.State.Progressing, 2, Instant.parse("2026-11-21T09:05:00Z"), Instant.parse("2026-11-21T09:08:00Z"), null, null)));
        FailoverMemory memory = new FailoverMemory(List.of(), List.of(new FailoverRecord(List.of("us-1"), List.of("eu-1"), dev.windlass.policy.state.EvictionReason.ClusterUnreachable,
                Instant.parse("2026-11-21T08:00:00Z"), Instant.parse("2026-11-21T08:01:00Z"), List.of(new PreservedValue("windlass.dev/checkpoint", "48213", "apps/Deployment web/web")), null)),
                List.of(new FailoverRecord(List.of("eu-1"), List.of("us-1"), dev.windlass.policy.state.EvictionReason.ApplicationFailure, Instant.parse("2026-11-21T07:00:00Z"), Instant.parse("2026-11-21T07:03:00Z"),
                        List.of(), "us-1 failed too before it was healthy")), List.of());
        AppStatus web = apps.get("web");
        apps.put("web", new AppStatus("web", web.definedIn(), "rev00002bbbb", SOURCE, true,
                List.of(new Condition("Ready", Condition.Status.False, "Degraded", webMessage, java.time.Instant.parse("2026-11-21T09:06:00Z"))), web.placement(), List.of(
                new TargetStatus("eu-1", "rev00002bbbb", dev.windlass.policy.state.Sync.Synced, dev.windlass.policy.state.Health.Healthy, "", List.of(), List.of(inv("web"))),
                new TargetStatus("us-1", "rev00001aaaa", dev.windlass.policy.state.Sync.OutOfSync, dev.windlass.policy.state.Health.Degraded, webMessage, List.of("spec.replicas"), List.of(inv("web")))),
                List.of(), rollout, List.of(), null, List.of(), memory));
        List<RemediationRecord> nodes = new ArrayList<>();
        nodes.add(new RemediationRecord("control-plane", "Node eu-1-cp-1", RemediationRecord.State.Healthy, "", Instant.parse("2026-11-21T08:00:00Z"), null, Instant.parse("2026-11-21T08:00:00Z"), true, null, 0, null, ""));
        nodes.add(new RemediationRecord("control-plane", "Node eu-1-cp-2", RemediationRecord.State.Marked, "Ready=False", Instant.parse("2026-11-21T08:00:00Z"), Instant.parse("2026-11-21T09:00:00Z"), null, true,
                Instant.parse("2026-11-21T09:00:05Z"), 1, Instant.parse("2026-11-21T09:00:05Z"), "marked for its owner to replace"));
        nodes.add(new RemediationRecord("control-plane", "Node eu-1-cp-3", RemediationRecord.State.Healthy, "", Instant.parse("2026-11-21T08:00:00Z"), null, Instant.parse("2026-11-21T08:00:00Z"), true, null, 0, null, ""));
        Map<String, ClusterStatus> clusters = new TreeMap<>();
        clusters.put("eu-1", new ClusterStatus("eu-1", "clusters/eu-1.yaml", dev.windlass.policy.state.Reachability.Reachable, "", "ClientSide", 3, 3, List.of(), dev.windlass.policy.state.ClusterState.Healthy, null,
                Instant.parse("2026-11-21T08:00:00Z"), nodes));
        clusters.put("us-1", new ClusterStatus("us-1", "clusters/us-1.yaml", dev.windlass.policy.state.Reachability.Unreachable, "connect timed out", "ClientSide", 0, 0, List.of(),
                dev.windlass.policy.state.ClusterState.ClusterUnreachable, Instant.parse("2026-11-21T09:09:00Z"), null));
        return EngineState.of(SOURCE, apps, clusters);
    }

    static InventoryEntry inv(String app) {
        return new InventoryEntry("v1", "ConfigMap", app, app, "", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_UPDATE);
    }

    static Plan plan(String blocked) {
        Action wait = new Action("web", "us-1", new ObjectRef("", "ConfigMap", "web", "web"), "v1", Operation.Update, new ActionReason.ChangedInGit(),
                List.of(), null, null, false);
        Map<String, AppFailover> failovers = new TreeMap<>();
        if (blocked != null) {
            failovers.put("web", new AppFailover(List.of("us-1"), FailoverMemory.EMPTY, List.of(), java.util.Set.of(), Map.of(), Map.of(), blocked,
                    dev.windlass.policy.failover.FailoverBlock.NoEligibleCluster, Map.of(), java.util.Set.of()));
        }
        return new Plan(SOURCE, List.of(), List.of(new HeldAction(wait, new dev.windlass.policy.plan.HoldReason.AwaitsWave("waves", 2, List.of("us-2")))), List.of(), List.of(),
                "planhash", Map.of(), false, failovers, null, Map.of());
    }

    static FleetView view(int extraApps, String webMessage, String blocked, Instant at) {
        DesiredState desired = repo(extraApps);
        return new FleetView(at, "main", SOURCE, state(desired, webMessage), desired, plan(blocked),
                new TreeMap<>(Map.of("feature-x", "# Windlass plan for feature/x\n\n**1 to update** <script>alert(1)</script>\n")));
    }
}
