package dev.windlass.policy.plan;

import dev.windlass.policy.state.Sync;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.state.EngineState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A memo makes the planner compare only targets whose inputs changed, and never changes the plan: every plan below is
 * also made without a memo and must be equal.
 */
class PlanMemoTest {
    static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    static final ObjectRef WEB_CONFIG = new ObjectRef("", "ConfigMap", "web", "web-config");

    final PlanMemo memo = new PlanMemo();
    FakeFleet fleet;
    EngineState state = EngineState.EMPTY;

    @BeforeEach
    void syncThreeAppsOnTwoClusters() {
        DesiredState desired = repo("v1");
        fleet = new FakeFleet(desired.clusters().keySet());
        Plan first = plan(desired);
        assertEquals(new PlanMemo.Work(6, 0, 6 * 3, 0), memo.lastWork(), "the first plan compares everything");
        applyAndRecord(desired, first);
        Plan settled = plan(desired);
        assertEquals(List.of(), settled.actions(), "synced");
    }

    @Test
    void anUnchangedFleetIsNotComparedAgain() {
        DesiredState desired = repo("v1");
        Plan plan = plan(desired);
        assertEquals(List.of(), plan.actions());
        assertEquals(new PlanMemo.Work(0, 6, 0, 6 * 3), memo.lastWork());
    }

    @Test
    void aChangedFileReplansOnlyItsApplicationsTargets() {
        DesiredState desired = repo("v2");
        Plan plan = plan(desired);
        assertEquals(List.of("Update web a ConfigMap web/web-config", "Update web b ConfigMap web/web-config"), describe(plan));
        assertEquals(new PlanMemo.Work(2, 4, 2 * 3, 4 * 3), memo.lastWork(), "web on a and b, nothing else");
    }

    @Test
    void aChangeOnOneClusterReplansOnlyThatTarget() {
        DesiredState desired = repo("v1");
        fleet.edit("b", WEB_CONFIG, List.of("data", "MODE"), "edited by hand");
        Plan plan = plan(desired);
        assertEquals(List.of("Update web b ConfigMap web/web-config"), describe(plan), "self-heal restores it on b only");
        assertEquals(new PlanMemo.Work(1, 5, 3, 5 * 3), memo.lastWork());
    }

    @Test
    void anObjectDeletedOnTheClusterIsSeen() {
        DesiredState desired = repo("v1");
        fleet.objects.get("a").remove(WEB_CONFIG);
        Plan plan = plan(desired);
        assertEquals(List.of("Create web a ConfigMap web/web-config"), describe(plan));
        assertEquals(1, memo.lastWork().targetsPlanned());
    }

    @Test
    void aClusterThatBecomesUnreachableAndComesBackIsPlannedAgain() {
        DesiredState desired = repo("v1");
        fleet.unreachable.put("a", "connection refused");
        Plan away = plan(desired);
        assertEquals(3, away.apps().stream().filter(a -> a.targets().stream().anyMatch(t -> t.sync() == Sync.Unknown)).count());
        fleet.unreachable.clear();
        fleet.objects.get("a").remove(WEB_CONFIG);
        Plan back = plan(desired);
        assertEquals(List.of("Create web a ConfigMap web/web-config"), describe(back),
                "a target not planned in the last pass is forgotten, so what changed while away is seen");
        assertEquals(new PlanMemo.Work(3, 3, 9, 9), memo.lastWork());
    }

    @Test
    void anObjectThatLeftGitIsPrunedAndTheRecordChangeReplansTheTarget() {
        DesiredState without = repo("v1", false);
        Plan prune = plan(without);
        assertEquals(List.of("Delete web a ConfigMap web/web-config", "Delete web b ConfigMap web/web-config"), describe(prune));
        applyAndRecord(without, prune);
        Plan after = plan(without);
        assertEquals(List.of(), after.actions());
        assertEquals(2, memo.lastWork().targetsPlanned(), "web's record changed on a and b, so both are compared again");
    }

    private Plan plan(DesiredState desired) {
        Plan withMemo = Planner.plan(desired, fleet.observe(), state, Revisions.NONE, NOW, memo);
        assertEquals(Planner.plan(desired, fleet.observe(), state, NOW), withMemo, "the memo never changes a plan");
        return withMemo;
    }

    private void applyAndRecord(DesiredState desired, Plan plan) {
        ApplyResult applied = fleet.apply(plan);
        state = Transition.after(state, desired, fleet.observe(), plan, applied, NOW).state();
    }

    private static List<String> describe(Plan plan) {
        List<String> out = new ArrayList<>();
        for (Action a : plan.actions()) out.add(a.operation() + " " + a.app() + " " + a.cluster() + " " + a.object());
        return out;
    }

    private static DesiredState repo(String webMode) {
        return repo(webMode, true);
    }

    /** Three apps (web, db, cache) of two objects each plus their namespace, on clusters a and b. */
    private static DesiredState repo(String webMode, boolean webConfig) {
        List<String> files = new ArrayList<>(List.of(
                "clusters/a.yaml", cluster("a"),
                "clusters/b.yaml", cluster("b")));
        for (String app : List.of("web", "db", "cache")) {
            files.add("apps/" + app + "/app.yaml");
            files.add("apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + app + "}\n"
                    + "spec:\n  namespace: " + app + "\n  placement: {clusterNames: [a, b]}\n");
            files.add("apps/" + app + "/manifests/service.yaml");
            files.add("apiVersion: v1\nkind: Service\nmetadata: {name: " + app + "}\nspec:\n  ports: [{port: 80}]\n"
                    + "  selector: {app: " + app + "}\n");
            if (!app.equals("web") || webConfig) {
                files.add("apps/" + app + "/manifests/config.yaml");
                files.add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + app + "-config}\ndata: {MODE: "
                        + (app.equals("web") ? webMode : "v1") + "}\n");
            }
        }
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    private static String cluster(String name) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: " + name + "}\n"
                + "spec:\n  connection: {sandbox: {nodes: 1}}\n";
    }
}
