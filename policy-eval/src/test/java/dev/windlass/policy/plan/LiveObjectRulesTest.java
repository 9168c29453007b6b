package dev.windlass.policy.plan;

import dev.windlass.policy.state.Sync;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.observe.ServerDiff;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.state.EngineState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the planner makes of what real clusters do to applied objects: jobs the cluster removes, and the server's own answer on drift. */
class LiveObjectRulesTest {
    static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    static final ObjectRef JOB = new ObjectRef("batch", "Job", "web", "migrate");
    static final ObjectRef CONFIG = new ObjectRef("", "ConfigMap", "web", "web-config");

    static DesiredState repo(String ttl, String mode) {
        return RepoParser.parse(RepoFiles.inline(
                "clusters/a.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: a}\nspec:\n  connection: {sandbox: {nodes: 1}}\n",
                "apps/web/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  namespace: web\n  placement: {clusterNames: [a]}\n",
                "apps/web/manifests/job.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate}\nspec:\n" + ttl
                        + "  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: \"migrate:" + mode + "\"}]\n",
                "apps/web/manifests/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config}\ndata: {MODE: \"1000m\"}\n"));
    }

    FakeFleet fleet;
    EngineState state = EngineState.EMPTY;

    private Plan planAndApply(DesiredState desired) {
        Plan plan = Planner.plan(desired, fleet.observe(), state, NOW);
        state = Transition.after(state, desired, fleet.observe(), plan, fleet.apply(plan), NOW).state();
        return plan;
    }

    private static List<String> describe(Plan plan) {
        return plan.actions().stream().map(a -> a.operation() + " " + a.object()).toList();
    }

    @Test void aJobTheClusterRemovedAfterItsTtlIsNotRunAgainUntilItChanges() {
        DesiredState v1 = repo("  ttlSecondsAfterFinished: 0\n", "1");
        fleet = new FakeFleet(v1.clusters().keySet());
        planAndApply(v1);
        fleet.objects.get("a").remove(JOB);  // the ttl-after-finished controller deletes the finished Job

        Plan after = planAndApply(v1);
        assertEquals(List.of(), describe(after), "it ran: not created again");
        var target = after.apps().get(0).targets().get(0);
        assertEquals(Sync.Synced, target.sync());
        assertTrue(target.note().contains("ran to completion and was removed after its ttlSecondsAfterFinished"), target.note());

        Plan changed = planAndApply(repo("  ttlSecondsAfterFinished: 0\n", "2"));
        assertEquals(List.of("Create Job.batch web/migrate"), describe(changed), "a new version of the Job runs");
    }

    @Test void aJobWithoutTtlThatDisappearsIsMissingAndCreatedAgain() {
        DesiredState v1 = repo("", "1");
        fleet = new FakeFleet(v1.clusters().keySet());
        planAndApply(v1);
        fleet.objects.get("a").remove(JOB);

        assertEquals(List.of("Create Job.batch web/migrate"), describe(planAndApply(v1)));
    }

    @Test void theServersAnswerAboutThisContentDecidesWhetherADifferenceIsDrift() {
        DesiredState v1 = repo("", "1");
        fleet = new FakeFleet(v1.clusters().keySet());
        planAndApply(v1);
        String hash = v1.apps().get("web").manifests().stream().filter(m -> m.ref().equals(CONFIG)).findFirst().orElseThrow().hash();
        fleet.edit("a", CONFIG, List.of("data", "MODE"), "1");  // as if the server stored it respelled
        LiveObject respelled = fleet.objects.get("a").get(CONFIG);

        fleet.objects.get("a").put(CONFIG, respelled.withServerDiff(new ServerDiff(hash, List.of())));
        assertEquals(List.of(), describe(planAndApply(v1)), "the server says applying Git changes nothing");

        fleet.objects.get("a").put(CONFIG, respelled.withServerDiff(new ServerDiff("another-content", List.of())));
        assertEquals(List.of("Update ConfigMap web/web-config"), describe(Planner.plan(v1, fleet.observe(), state, NOW)),
                "an answer about other content says nothing about this one");

        fleet.objects.get("a").put(CONFIG, respelled.withServerDiff(new ServerDiff(hash, List.of("data.MODE"))));
        Plan drift = Planner.plan(v1, fleet.observe(), state, NOW);
        assertEquals(List.of("data.MODE"), drift.actions().get(0).fields());
    }
}
