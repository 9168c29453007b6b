package dev.windlass.policy.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.failover.FailoverBlock;
import dev.windlass.policy.model.FailoverPolicy.PurgeMode;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.plan.Event.*;
import dev.windlass.policy.remediation.RemediationBlock;
import dev.windlass.policy.state.EvictionReason;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.PreservedValue;
import dev.windlass.policy.state.RemediationRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The words of every kind of status commit line, as users read them in {@code git log}: each case here is the line as the engine
 * wrote it before events were typed, and the {@code Windlass-Event} trailer it goes with.
 */
class EventLineTest {
    static final ObjectRef OLD = new ObjectRef("", "ConfigMap", "web", "old");
    static final ObjectRef DEPLOY = new ObjectRef("apps", "Deployment", "web", "frontend");
    static final ObjectRef NODE = new ObjectRef("", "Node", "", "node-a");

    static void line(Event.Type type, String expected, Event e) {
        assertEquals(expected, EventLine.of(e), e.toString());
        assertEquals(type, e.type(), e.toString());
    }

    @Test
    void syncPruneAndErrors() {
        line(Event.Type.Sync, "web 1d7b01005e22 on eu-1: 2 created, 1 configured, 3 deleted", new Synced("web", "1d7b01005e22", "eu-1", 2, 1, 3));
        line(Event.Type.Sync, "web 1d7b01005e22 on eu-1: 1 configured", new Synced("web", "1d7b01005e22", "eu-1", 0, 1, 0));
        line(Event.Type.Prune, "web on eu-1: pruned ConfigMap web/old (removed from Git)",
                new Pruned("web", "eu-1", OLD, new ActionReason.Removed(ActionReason.Leave.FromGit, null, false)));
        line(Event.Type.Prune, "web removed from eu-2", new RemovedFrom("web", "eu-2"));
        line(Event.Type.Prune, "web deleted from Git and removed from every cluster", new AppDeleted("web"));
        line(Event.Type.Error, "web on eu-1: Update Deployment web/frontend failed: admission webhook denied it",
                new ApplyFailed("web", "eu-1", Operation.Update, DEPLOY, "admission webhook denied it"));
        line(Event.Type.Error, "web on eu-1: PreSync hook Job.batch web/migrate- failed: its Job failed (Job migrate-x7k2p failed)",
                new Event.HookRan("web", "eu-1", new dev.windlass.policy.model.ObjectRef("batch", "Job", "web", "migrate-"),
                        dev.windlass.policy.model.Hook.Phase.PreSync, HookResult.JobFailed, "Job migrate-x7k2p failed"));
        line(Event.Type.Error, "web on eu-1: PreSync hook Job.batch web/migrate- failed: the cluster did not answer (timed out)",
                new Event.HookRan("web", "eu-1", new dev.windlass.policy.model.ObjectRef("batch", "Job", "web", "migrate-"),
                        dev.windlass.policy.model.Hook.Phase.PreSync, HookResult.Unanswered, "timed out"));
        line(Event.Type.Sync, "web on eu-1: PostSync hook Job.batch web/smoke succeeded",
                new Event.HookRan("web", "eu-1", new dev.windlass.policy.model.ObjectRef("batch", "Job", "web", "smoke"),
                        dev.windlass.policy.model.Hook.Phase.PostSync, HookResult.Succeeded, ""));
        line(Event.Type.Error, "web: Delete ConfigMap web/old on eu-2 failed: forbidden", new RemovalFailed("web", "eu-2", Operation.Delete, OLD, "forbidden"));
        line(Event.Type.Error, "eu-1: remediation Patch Node node-a on eu-1 failed: conflict", new RemediationFailed("eu-1", Operation.Patch, NODE, "conflict"));
        line(Event.Type.Error, "web is invalid (1 error), nothing applied: apps/web/app.yaml:4:3: unknown field 'replica'",
                new AppInvalid("web", 1, "apps/web/app.yaml:4:3: unknown field 'replica'"));
        line(Event.Type.Error, "web is invalid (2 errors), nothing applied: ", new AppInvalid("web", 2, ""));
    }

    @Test
    void healthDriftAndClusters() {
        line(Event.Type.Health, "web healthy on eu-1, eu-2", new HealthChanged("web", Health.Healthy, List.of("eu-1", "eu-2"), "", false));
        line(Event.Type.Error, "web degraded on eu-1: Deployment web/frontend: 0/2 ready",
                new HealthChanged("web", Health.Degraded, List.of("eu-1"), "Deployment web/frontend: 0/2 ready", false));
        line(Event.Type.Health, "web on eu-1 waiting: rollout prod: waits for wave 1",
                new HealthChanged("web", Health.Missing, List.of("eu-1"), "waiting: rollout prod: waits for wave 1", true));
        line(Event.Type.Health, "cluster eu-1 reachable again", new ClusterReachable("eu-1"));
        line(Event.Type.Error, "cluster eu-1 unreachable: connection refused", new ClusterUnreachable("eu-1", "connection refused"));
        line(Event.Type.Health, "cluster eu-1 ready again", new ClusterReady("eu-1"));
        line(Event.Type.Error, "cluster eu-1 not ready: 0 of 3 nodes ready", new ClusterNotReady("eu-1", "0 of 3 nodes ready"));
        line(Event.Type.Drift, "web on eu-1: drift in Deployment web/frontend: spec.replicas, ConfigMap web/old: data.a",
                new Drifted("web", "eu-1", List.of("Deployment web/frontend: spec.replicas", "ConfigMap web/old: data.a")));
        line(Event.Type.Drift, "web on eu-1: drift gone", new DriftGone("web", "eu-1"));
    }

    @Test
    void rollouts() {
        line(Event.Type.Rollout, "web aaa rollout superseded by bbb", new RolloutSuperseded("web", "aaa", "bbb"));
        line(Event.Type.Rollout, "web bbb rollout started (prod-waves, 3 waves)", new RolloutStarted("web", "bbb", "prod-waves", 3));
        line(Event.Type.Rollout, "web bbb rollout started (canary, 1 wave)", new RolloutStarted("web", "bbb", "canary", 1));
        line(Event.Type.Rollout, "web bbb wave 1/3 started on eu-1, eu-2", new WaveStarted("web", "bbb", 1, 3, List.of("eu-1", "eu-2")));
        line(Event.Type.Rollout, "web bbb wave 2/3 (eu-1,eu-2) healthy after 42s", new WaveHealthy("web", "bbb", 2, 3, List.of("eu-1", "eu-2"), 42));
        line(Event.Type.Rollout, "web bbb rolled out to 1 cluster", new RolledOut("web", "bbb", 1));
        line(Event.Type.Rollout, "web bbb rolled out to 3 clusters", new RolledOut("web", "bbb", 3));
        line(Event.Type.Rollout, "web bbb rollout failed, stopped where it was: eu-1 degraded", new RolloutFailed("web", "bbb", "eu-1 degraded"));
        line(Event.Type.Rollout, "web bbb rollout failed, rolled back to aaa: eu-1 degraded", new RolledBack("web", "bbb", "aaa", "eu-1 degraded"));
        line(Event.Type.Rollout, "web bbb rollout paused: canary latency (Alice)", new RolloutPaused("web", "bbb", "paused: canary latency (Alice)"));
        line(Event.Type.Rollout, "revert of web bbb offered as pull request #7", new RevertOffered("web", "bbb", 7));
        line(Event.Type.Rollout, "revert of web bbb not offered: the Git host refused it", new RevertRefused("web", "bbb"));
    }

    @Test
    void failovers() {
        List<String> to = List.of("eu-2", "eu-3");
        line(Event.Type.Failover, "stream failover eu-1 → eu-2, eu-3 started (ClusterUnreachable), purge Gracefully",
                new FailoverStarted("stream", "eu-1", to, EvictionReason.ClusterUnreachable, PurgeMode.Gracefully));
        line(Event.Type.Failover, "stream carries windlass.dev/offset=4700, lag=3 to eu-2, eu-3",
                new StateCarried("stream", List.of(new PreservedValue("windlass.dev/offset", "4700", "x"), new PreservedValue("lag", "3", "y")), to));
        line(Event.Type.Failover, "stream: $.status.lag matched nothing on eu-1", new FailoverNote("stream", "$.status.lag matched nothing on eu-1"));
        line(Event.Type.Failover, "stream failover eu-1 → eu-2 (ClusterUnreachable) healthy after 42s",
                new FailoverHealthy("stream", "eu-1", List.of("eu-2"), EvictionReason.ClusterUnreachable, 42));
        line(Event.Type.Failover, "stream failover eu-1 → eu-2 failed: not healthy within 300s",
                new FailoverFailed("stream", "eu-1", List.of("eu-2"), "not healthy within 300s"));
        line(Event.Type.Failover, "stream failover eu-1 → eu-2 failed", new FailoverFailed("stream", "eu-1", List.of("eu-2"), null));
        line(Event.Type.Failover, "eu-1 is back in stream's pool: healthy for the toleration", new BackInPool("stream", "eu-1"));
        line(Event.Type.Failover, "failover blocked (NoEligibleCluster): no cluster can take stream",
                new FailoverBlocked("stream", FailoverBlock.NoEligibleCluster, "no cluster can take stream"));
        line(Event.Type.Failover, "stream failover no longer blocked", new FailoverUnblocked("stream"));
    }

    @Test
    void remediation() {
        line(Event.Type.Remediation, "eu-1: no remediation policy selects it now; its 1 target is no longer watched (marks stay until removed by hand)",
                new RemediationUnwatched("eu-1", 1));
        line(Event.Type.Remediation, "eu-1: no remediation policy selects it now; its 4 targets are no longer watched (marks stay until removed by hand)",
                new RemediationUnwatched("eu-1", 4));
        line(Event.Type.Remediation, "eu-1: node-health watches Node a, Node b, Node c (+2 more)",
                new RemediationWatches("eu-1", "node-health", List.of("Node a", "Node b", "Node c", "Node d", "Node e"), false));
        line(Event.Type.Remediation, "eu-1: node-health watches Node f (new)", new RemediationWatches("eu-1", "node-health", List.of("Node f"), true));
        line(Event.Type.Remediation, "eu-1: node-health no longer watches Node a, Node b: gone",
                new RemediationNoLongerWatches("eu-1", "node-health", List.of("Node a", "Node b")));
        line(Event.Type.Remediation, "eu-1: remediation blocked (Quorum): 2 of 3 nodes would be out",
                new RemediationBlocked("eu-1", RemediationBlock.Quorum, "2 of 3 nodes would be out"));
        line(Event.Type.Remediation, "eu-1: remediation no longer blocked", new RemediationUnblocked("eu-1"));
        Unhealthy held = new Unhealthy("Ready=False", 65L);
        line(Event.Type.Remediation, "eu-1: Node a marked unhealthy (Ready=False for 1m5s): marked (node-health)",
                new TargetMarked("eu-1", "Node a", "node-health", held, "marked"));
        line(Event.Type.Remediation, "eu-1: Node a CordonAndDrain attempt 1 of 2 (Ready=False) (node-health)",
                new TargetActedOn("eu-1", "Node a", "node-health", new Unhealthy("Ready=False", null), "CordonAndDrain attempt 1 of 2"));
        line(Event.Type.Remediation, "eu-1: Node a gave up after 2 attempts (node-health)", new TargetGivenUp("eu-1", "Node a", "node-health", "gave up after 2 attempts"));
        line(Event.Type.Remediation, "eu-1: Node a missing: not on the cluster (node-health)", new TargetMissing("eu-1", "Node a", "node-health", "not on the cluster"));
        line(Event.Type.Remediation, "eu-1: Node a healthy again after 1 attempt; cordoned since 10:00 (node-health)",
                new TargetHealthy("eu-1", "Node a", "node-health", true, 1, "cordoned since 10:00"));
        line(Event.Type.Remediation, "eu-1: Node a healthy (node-health)", new TargetHealthy("eu-1", "Node a", "node-health", false, 0, null));
        line(Event.Type.Remediation, "eu-1: Node a healthy again after 3 attempts (node-health)", new TargetHealthy("eu-1", "Node a", "node-health", true, 3, null));
        line(Event.Type.Remediation, "eu-1: Node a uncordoned and unmarked: healthy for 1h30m since Windlass cordoned it; its retries start over (node-health)",
                new TargetUncordoned("eu-1", "Node a", "node-health", 5400));
        line(Event.Type.Remediation, "eu-1: Node a healthy for 45s: its attempts start over (node-health)",
                new TargetAttemptsReset("eu-1", "Node a", "node-health", 45));
        line(Event.Type.Remediation, "eu-1: Node a Ready=False: waits 10m before marking (node-health)",
                new TargetPending("eu-1", "Node a", "node-health", "Ready=False", "waits 10m before marking"));
        line(Event.Type.Remediation, "eu-1: Node a unhealthy (Ready=False for 45s) (node-health)", new TargetUnhealthy("eu-1", "Node a", "node-health",
                new Unhealthy("Ready=False", 45L), ""));
        line(Event.Type.Remediation, "eu-1: Node a unhealthy (Ready=False): kubelet stopped (node-health)", new TargetUnhealthy("eu-1", "Node a", "node-health",
                new Unhealthy("Ready=False", null), "kubelet stopped"));
        line(Event.Type.Remediation, "eu-1: Node a remediating (Ready=False): waiting (node-health)",
                new TargetStateChanged("eu-1", "Node a", "node-health", RemediationRecord.State.Remediating, "Ready=False", "waiting"));
        line(Event.Type.Remediation, "eu-1: Node a healthy (node-health)",
                new TargetStateChanged("eu-1", "Node a", "node-health", RemediationRecord.State.Healthy, "", ""));
    }

    @Test
    void suspensionReviewsAndAlerts() {
        line(Event.Type.Suspension, "web suspended: on eu-1, eu-2 by Freeze/black-friday", new AppSuspended("web", "on eu-1, eu-2 by Freeze/black-friday"));
        line(Event.Type.Suspension, "cluster eu-1 suspended: Cluster/eu-1 suspended", new ClusterSuspended("eu-1", "Cluster/eu-1 suspended"));
        line(Event.Type.Suspension, "web resumed", new AppResumed("web"));
        line(Event.Type.Suspension, "cluster eu-1 resumed", new ClusterResumed("eu-1"));
        line(Event.Type.Review, "plan for feature (#7): 1 to create.", new ReviewPlanned("feature (#7)", "1 to create."));
        line(Event.Type.Review, "review of feature (#7) closed: its head is gone or part of main", new ReviewClosed("feature (#7)", "main"));
        line(Event.Type.Review, "applied reviewed plan abc of feature (#7)", new ReviewApplied("feature (#7)", "abc"));
        line(Event.Type.Review, "applied re-published plan def of feature (#7) (it diverged from review and was held one pass)",
                new ReviewRepublishedApplied("feature (#7)", "def"));
        line(Event.Type.Review, "held: plan diverged from review of feature (#7) (reviewed abc, now def); the fresh plan is published and applied if it "
                + "is the same on the next pass", new ReviewDivergedHeld("feature (#7)", "abc", "def"));
        line(Event.Type.Review, "plan diverged from review of feature (#7) (reviewed abc, now def); applied, Git is the truth",
                new ReviewDivergedApplied("feature (#7)", "abc", "def"));
        line(Event.Type.Alert, "alerts: 3 delivered", new AlertsRecorded(3, 0));
        line(Event.Type.Alert, "alerts: 1 delivered, 2 given up", new AlertsRecorded(1, 2));
    }
}
