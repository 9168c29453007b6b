package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.RemediationRecord;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Control-plane nodes going not ready on clusters with 3 and 5 control-plane nodes, an injected clock, and a
 * remediation policy: marked first, acted on within the gate and the quorum, never in a loop. Run on the sandbox
 * (RemediationE2E, where the simulator reports Ready=False) and on real control planes (RemediationIT, where the node's
 * kubelet stops and the node-lifecycle controller reports Ready=Unknown).
 */
abstract class RemediationContract {
    @TempDir Path dir;

    /** Real control planes, or the sandbox. */
    abstract boolean real();

    static String cluster(TestFleet fleet, String name, int controlPlane, boolean suspend) {
        return fleet.clusterYaml(name, "env: prod", controlPlane + 1, controlPlane, suspend ? "suspend: true" : "");
    }

    /** The Ready status of a node that is not ready: its kubelet says False on the sandbox; a lost kubelet is Unknown. */
    static String notReadyStatus(TestFleet fleet) { return fleet.backend.real() ? "Unknown" : "False"; }

    static String policy(String remediation) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: RemediationPolicy
                metadata: {name: control-plane}
                spec:
                  clusterSelector: {matchLabels: {env: prod}}
                  target: {apiVersion: v1, kind: Node, selector: {matchLabels: {node-role.kubernetes.io/control-plane: ""}}}
                  checks:
                    unhealthyConditions:
                      - {type: Ready, status: "False", timeoutSeconds: 60}
                      - {type: Ready, status: Unknown, timeoutSeconds: 60}
                  remediation:
                %s
                """.formatted(remediation.indent(4).stripTrailing());
    }

    static final String QUORUM_ANNOTATE = "quorum: true\naction: Annotate";

    TestFleet start(int controlPlane, String remediation) throws Exception {
        return start(controlPlane, remediation, false);
    }

    TestFleet start(int controlPlane, String remediation, boolean suspend) throws Exception {
        TestFleet fleet = new TestFleet(dir, real());
        fleet.push("a cluster and its control-plane remediation", c -> c
                .write("clusters/cp.yaml", cluster(fleet, "cp", controlPlane, suspend))
                .write("policies/remediation.yaml", policy(remediation)));
        fleet.settle();
        return fleet;
    }

    static PassReport after(TestFleet fleet, int seconds) throws Exception {
        return fleet.passAfter(Duration.ofSeconds(seconds));
    }

    static ClusterStatus cp(TestFleet fleet) throws Exception { return fleet.engine.reconciler().state().clusters().get("cp"); }

    static RemediationRecord record(TestFleet fleet, String node) throws Exception {
        return cp(fleet).remediationRecords().stream().filter(r -> r.target().equals("Node " + node)).findFirst().orElseThrow();
    }

    static String mark(TestFleet fleet, String node) {
        try (KubernetesClient k = fleet.client("cp")) {
            Node n = k.nodes().withName(node).get();
            return n.getMetadata().getAnnotations() == null ? null : n.getMetadata().getAnnotations().get("windlass.dev/unhealthy");
        }
    }

    static Condition blocked(TestFleet fleet) throws Exception {
        return cp(fleet).conditions().stream().filter(c -> c.type().equals("RemediationBlocked")).findFirst().orElse(null);
    }

    static String story(TestFleet fleet) throws Exception {
        return String.join("\n----\n", fleet.statusLog().stream().map(RevCommit::getFullMessage).toList());
    }

    static void notReady(TestFleet fleet, String node, boolean notReady) {
        fleet.backend.nodeReady("cp", node, !notReady);
    }

    @Test
    void oneOfThreeIsMarkedAfterTheTimeoutAndUnmarkedWhenHealthy() throws Exception {
        try (TestFleet fleet = start(3, QUORUM_ANNOTATE)) {
            assertEquals(3, cp(fleet).remediationRecords().size(), cp(fleet).remediationRecords().toString());
            notReady(fleet, "cp-cp-2", true);
            after(fleet, 5);
            assertEquals(RemediationRecord.State.Pending, record(fleet, "cp-cp-2").state());
            after(fleet, 40);
            assertNull(mark(fleet, "cp-cp-2"), "45 s NotReady: within the 60 s timeout");
            PassReport marked = after(fleet, 20);
            assertEquals("Ready=" + notReadyStatus(fleet) + " for 1m", mark(fleet, "cp-cp-2"));
            assertEquals(RemediationRecord.State.Marked, record(fleet, "cp-cp-2").state());
            assertTrue(marked.plan().recordFirst(), "the decision is recorded before it is acted on");
            assertTrue(story(fleet).contains("cp: Node cp-cp-2 marked unhealthy (Ready=" + notReadyStatus(fleet) + " for 1m): marked (attempt 1 of 3); the owner remediates (control-plane)"), story(fleet));
            assertTrue(story(fleet).contains("Windlass-Event: Remediation"));
            for (int i = 0; i < 5; i++) after(fleet, 30);
            assertEquals("Ready=" + notReadyStatus(fleet) + " for 1m", mark(fleet, "cp-cp-2"), "Annotate only marks: the owner remediates; it is not re-marked");
            assertEquals(1, record(fleet, "cp-cp-2").attempts(), "the mark was its one attempt");

            notReady(fleet, "cp-cp-2", false);
            after(fleet, 5);
            assertNull(mark(fleet, "cp-cp-2"), "healthy again: the mark comes off");
            assertEquals(RemediationRecord.State.Healthy, record(fleet, "cp-cp-2").state());
            assertTrue(story(fleet).contains("cp: Node cp-cp-2 healthy again"), story(fleet));
        }
    }

    @Test
    void twoOfThreeIsBlockedByQuorumWithTheNumbers() throws Exception {
        try (TestFleet fleet = start(3, QUORUM_ANNOTATE)) {
            fleet.backend.nodesReady("cp", List.of("cp-cp-1", "cp-cp-2"), false);
            after(fleet, 5);
            after(fleet, 70);
            assertNull(mark(fleet, "cp-cp-1"));
            assertNull(mark(fleet, "cp-cp-2"));
            Condition b = blocked(fleet);
            assertNotNull(b, cp(fleet).conditions().toString());
            assertEquals("Quorum", b.reason());
            assertTrue(b.message().startsWith("control-plane: "), b.message());
            assertTrue(b.message().contains("3") && b.message().contains("1 healthy"), b.message());
            assertTrue(story(fleet).contains("remediation blocked (Quorum)"), story(fleet));
            String table = dev.windlass.engine.status.StatusTable.render(fleet.engine.reconciler().state(), null, fleet.clock.instant());
            assertTrue(table.lines().anyMatch(l -> l.startsWith("cp") && l.contains("Node cp-cp-1") && l.contains("Unhealthy")
                    && l.contains("Ready=" + notReadyStatus(fleet) + " for")), table);
            assertTrue(table.contains("remediation blocked on cp (Quorum): control-plane: "), "windlass status shows it:\n" + table);
        }
    }

    @Test
    void twoOfFiveWaitsWhileOneIsInFlight() throws Exception {
        try (TestFleet fleet = start(5, QUORUM_ANNOTATE)) {
            notReady(fleet, "cp-cp-1", true);
            after(fleet, 5);
            after(fleet, 60);
            assertEquals(RemediationRecord.State.Marked, record(fleet, "cp-cp-1").state());
            notReady(fleet, "cp-cp-2", true);
            after(fleet, 5);
            after(fleet, 60);
            assertNull(mark(fleet, "cp-cp-2"), "one remediation at a time in a quorum group");
            assertEquals("Quorum", blocked(fleet).reason());
            assertTrue(blocked(fleet).message().contains("in flight"), blocked(fleet).message());
            notReady(fleet, "cp-cp-1", false);
            after(fleet, 5);
            assertNull(mark(fleet, "cp-cp-1"), "cp-1 is healthy: its mark comes off");
            assertNull(mark(fleet, "cp-cp-2"), "not in the same pass: the group never has two marks at once");
            assertEquals("Quorum", blocked(fleet).reason());
            after(fleet, 5);
            assertNotNull(mark(fleet, "cp-cp-2"), "cp-1's mark is gone: cp-2 goes next");
            assertNull(mark(fleet, "cp-cp-1"));
        }
    }

    /** Marks, from NotReady on: a pass 5 s later sees it, one 60 s later finds it unhealthy for the timeout. */
    static void unhealthyForTheTimeout(TestFleet fleet, String node) throws Exception {
        notReady(fleet, node, true);
        after(fleet, 5);
        after(fleet, 60);
    }

    static long lines(TestFleet fleet, String text) throws Exception {
        return story(fleet).lines().filter(l -> l.startsWith("- ") && l.contains(text)).count();
    }

    @Test
    void aFlappingNodeIsMarkedOncePerRetryPeriodAndGivenUpAfterMaxRetry() throws Exception {
        try (TestFleet fleet = start(3, "quorum: true\naction: Annotate\nmaxRetry: 2\nretryPeriodSeconds: 120\nminHealthyPeriodSeconds: 600")) {
            unhealthyForTheTimeout(fleet, "cp-cp-2");
            assertNotNull(mark(fleet, "cp-cp-2"));
            assertEquals(1, record(fleet, "cp-cp-2").attempts(), "a mark is an attempt");
            notReady(fleet, "cp-cp-2", false);
            after(fleet, 5);
            assertNull(mark(fleet, "cp-cp-2"), "healthy again: the mark comes off");
            assertEquals(1, record(fleet, "cp-cp-2").attempts(), "healthy for less than minHealthyPeriodSeconds: the attempt still counts");

            unhealthyForTheTimeout(fleet, "cp-cp-2");
            assertNull(mark(fleet, "cp-cp-2"), "70 s after the first mark: the next waits for retryPeriodSeconds");
            after(fleet, 60);
            assertNotNull(mark(fleet, "cp-cp-2"), "130 s after the first mark: marked again");
            assertEquals(2, record(fleet, "cp-cp-2").attempts());
            notReady(fleet, "cp-cp-2", false);
            after(fleet, 5);
            assertNull(mark(fleet, "cp-cp-2"));

            unhealthyForTheTimeout(fleet, "cp-cp-2");
            after(fleet, 120);
            assertNull(mark(fleet, "cp-cp-2"), "maxRetry marks made: given up");
            assertEquals(RemediationRecord.State.GaveUp, record(fleet, "cp-cp-2").state());
            for (int i = 0; i < 3; i++) after(fleet, 60);
            assertNull(mark(fleet, "cp-cp-2"));
            assertEquals(2, lines(fleet, "cp-cp-2 marked unhealthy"), story(fleet));
            assertEquals(1, lines(fleet, "cp-cp-2 given up"), story(fleet));

            notReady(fleet, "cp-cp-2", false);
            after(fleet, 5);
            unhealthyForTheTimeout(fleet, "cp-cp-2");
            assertNull(mark(fleet, "cp-cp-2"), "healthy for less than minHealthyPeriodSeconds after giving up: not marked again");
            assertEquals(RemediationRecord.State.GaveUp, record(fleet, "cp-cp-2").state());

            notReady(fleet, "cp-cp-2", false);
            after(fleet, 5);
            after(fleet, 600);
            assertEquals(0, record(fleet, "cp-cp-2").attempts(), "healthy for minHealthyPeriodSeconds: a fresh sequence");
            unhealthyForTheTimeout(fleet, "cp-cp-2");
            assertNotNull(mark(fleet, "cp-cp-2"));
            assertEquals(1, record(fleet, "cp-cp-2").attempts());
            assertEquals(3, lines(fleet, "cp-cp-2 marked unhealthy"), story(fleet));
        }
    }

    @Test
    void anUnchangedUnhealthyNodeMakesNoStatusCommitAndEveryCommitNamesItsEvent() throws Exception {
        try (TestFleet fleet = start(3, QUORUM_ANNOTATE)) {
            notReady(fleet, "cp-cp-2", true);
            after(fleet, 5);
            int pending = fleet.statusLog().size();
            for (int i = 0; i < 4; i++) after(fleet, 10);
            assertEquals(pending, fleet.statusLog().size(), "not ready, within its timeout, unchanged: no commit\n" + story(fleet));
            after(fleet, 20);
            assertNotNull(mark(fleet, "cp-cp-2"));
            int marked = fleet.statusLog().size();
            for (int i = 0; i < 6; i++) after(fleet, 30);
            assertEquals(marked, fleet.statusLog().size(), "marked, unchanged: no commit\n" + story(fleet));
            RemediationRecord r = record(fleet, "cp-cp-2");
            assertEquals("Ready=" + notReadyStatus(fleet), r.reason(), "the condition, without a duration that would tick");
            assertEquals(fleet.clock.instant().minusSeconds(240), r.unhealthySince(), "since when, by the engine's clock");
            assertTrue(story(fleet).contains("cp: Node cp-cp-2 marked unhealthy (Ready=" + notReadyStatus(fleet) + " for 1m): "), story(fleet));
            String table = dev.windlass.engine.status.StatusTable.render(fleet.engine.reconciler().state(), null, fleet.clock.instant());
            assertTrue(table.lines().anyMatch(l -> l.contains("Node cp-cp-2") && l.contains("Ready=" + notReadyStatus(fleet) + " for 4m;")),
                    "windlass status says how long:\n" + table);
            for (RevCommit c : fleet.statusLog()) {
                assertTrue(c.getFullMessage().contains("\nWindlass-Event: "), "every status commit names its event:\n" + c.getFullMessage());
            }
        }
    }

    @Test
    void triggerIfPercentRoundsDownAndStopsEverything() throws Exception {
        try (TestFleet fleet = start(5, "triggerIf: {unhealthyLessThanOrEqualTo: 40%}\naction: Annotate\nmaxInFlight: 3")) {
            fleet.backend.nodesReady("cp", List.of("cp-cp-1", "cp-cp-2", "cp-cp-3"), false);
            after(fleet, 5);
            after(fleet, 70);
            for (String n : List.of("cp-cp-1", "cp-cp-2", "cp-cp-3")) assertNull(mark(fleet, n));
            assertEquals("TooManyUnhealthy", blocked(fleet).reason());
            assertEquals("control-plane: 3 of 5 targets unhealthy; triggerIf allows at most 40% of 5 = 2", blocked(fleet).message());
            notReady(fleet, "cp-cp-3", false);
            after(fleet, 5);
            assertNotNull(mark(fleet, "cp-cp-1"), "2 of 5 is within 40%");
            assertNotNull(mark(fleet, "cp-cp-2"));
            assertNull(blocked(fleet));
        }
    }

    @Test
    void flappingShorterThanTheTimeoutDoesNothing() throws Exception {
        try (TestFleet fleet = start(3, QUORUM_ANNOTATE)) {
            for (int i = 0; i < 5; i++) {
                notReady(fleet, "cp-cp-2", true);
                after(fleet, 25);
                after(fleet, 25);
                notReady(fleet, "cp-cp-2", false);
                after(fleet, 5);
            }
            assertNull(mark(fleet, "cp-cp-2"));
            assertTrue(story(fleet).lines().noneMatch(l -> l.contains("marked unhealthy")), story(fleet));
        }
    }

    @Test
    void remediationWaitsWhileARolloutStepIsUnderWayOnTheCluster() throws Exception {
        try (TestFleet fleet = start(3, QUORUM_ANNOTATE)) {
            fleet.push("web, rolled out with a long soak", c -> c
                    .write("apps/web.yaml", FailoverContract.app("web", "{clusterNames: [cp]}").replace("tier: stream", "tier: frontend"))
                    .write("apps/web/deployment.yaml", FailoverContract.deployment("web"))
                    .write("policies/rollout.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: RolloutPolicy
                            metadata: {name: soak}
                            spec:
                              selector: {matchLabels: {tier: frontend}}
                              type: Progressive
                              minSuccessTime: 10m
                              progressDeadline: 30m
                            """));
            fleet.pass();
            var rollout = fleet.engine.reconciler().state().apps().get("web").rollout();
            assertNotNull(rollout, "web rolls out");
            notReady(fleet, "cp-cp-2", true);
            after(fleet, 5);
            after(fleet, 70);
            assertNull(mark(fleet, "cp-cp-2"), "deferred while web's step on cp is under way");
            assertEquals("RolloutInProgress", blocked(fleet).reason());
            assertEquals("control-plane: deferred: a rollout step of web is under way on cp", blocked(fleet).message());
            // The step ends by its progressDeadline (30m) plus minSuccessTime (10m) at the latest, Succeeded or Failed: on a
            // real control plane web may turn healthy at any pass, and soaks for 10m from there. 250 passes of 10s cover it.
            for (int i = 0; i < 250 && fleet.engine.reconciler().state().apps().get("web").rollout().active(); i++) after(fleet, 10);
            after(fleet, 5);
            assertNotNull(mark(fleet, "cp-cp-2"), "marked once the rollout step is done; web's rollout: "
                    + fleet.engine.reconciler().state().apps().get("web").rollout());
        }
    }

    @Test
    void nothingIsRemediatedOnASuspendedCluster() throws Exception {
        try (TestFleet fleet = start(3, QUORUM_ANNOTATE, true)) {
            notReady(fleet, "cp-cp-2", true);
            after(fleet, 5);
            after(fleet, 70);
            assertNull(mark(fleet, "cp-cp-2"));
            assertEquals("Suspended", blocked(fleet).reason());
            assertEquals(RemediationRecord.State.Unhealthy, record(fleet, "cp-cp-2").state(), "observed and recorded all the same");
        }
    }
}
