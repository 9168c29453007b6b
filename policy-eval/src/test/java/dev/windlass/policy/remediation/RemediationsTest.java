package dev.windlass.policy.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.NodeObservation;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.suspension.Suspensions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Decisions that need no cluster to show: missing members and the startup timeout, from records and observations. Every
 * duration is the engine's own: how long it has seen a target unhealthy, or since it first saw it; never a time the
 * server wrote (hosts' clocks differ).
 */
class RemediationsTest {
    static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    static final KindRef NODE = new KindRef("v1", "Node");

    static DesiredState repo(String checks) {
        return RepoParser.parse(RepoFiles.inline(
                "clusters/cp.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Cluster
                        metadata: {name: cp, labels: {env: prod}}
                        spec: {connection: {sandbox: {nodes: 3, controlPlaneNodes: 3}}}
                        """,
                "policies/remediation.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: RemediationPolicy
                        metadata: {name: control-plane}
                        spec:
                          clusterSelector: {matchLabels: {env: prod}}
                          target: {apiVersion: v1, kind: Node}
                          checks:
                        %s
                          remediation: {quorum: true, action: Annotate}
                        """.formatted(checks.indent(4).stripTrailing())));
    }

    static ObservedTarget node(String name, String ready, String since, String created) {
        return new ObservedTarget(NODE, "", name, Map.of(), Map.of(), List.of(new ObservedTarget.Condition("Ready", ready, since, "", "")),
                created, List.of(), false);
    }

    /** The same node, carrying Windlass's unhealthy mark. */
    static ObservedTarget marked(ObservedTarget t) {
        return new ObservedTarget(t.kind(), t.namespace(), t.name(), t.labels(), Map.of(Remediations.MARK, "Ready=False for 1m"),
                t.conditions(), t.createdAt(), t.owners(), t.unschedulable());
    }

    static ObservedState observed(ObservedTarget... nodes) {
        List<NodeObservation> n = new ArrayList<>();
        for (ObservedTarget t : nodes) n.add(new NodeObservation(t.name(), Map.of(), t.condition("Ready").status().equals("True")));
        return new ObservedState(Map.of("cp", new ClusterObservation("cp", dev.windlass.policy.state.Reachability.Reachable, "", Map.of(), Set.of(),
                n, true, Map.of(), "", Map.of(NODE, List.of(nodes)))));
    }

    static EngineState recorded(String... healthyNodes) {
        List<RemediationRecord> records = new ArrayList<>();
        for (String n : healthyNodes) records.add(healthy(n));
        return recorded(records);
    }

    static RemediationRecord healthy(String node) {
        return new RemediationRecord("control-plane", "Node " + node, RemediationRecord.State.Healthy, "", Instant.parse("2026-11-21T09:00:00Z"), null,
                Instant.parse("2026-11-21T09:00:00Z"), true, null, 0, null, "");
    }

    /** A node this engine has seen unhealthy since {@code since}, not yet for the timeout. */
    static RemediationRecord pending(String node, String since) {
        return new RemediationRecord("control-plane", "Node " + node, RemediationRecord.State.Pending, "Ready=False", Instant.parse("2026-11-21T09:00:00Z"), Instant.parse(since),
                null, true, null, 0, null, "");
    }

    /** A node this engine first saw at {@code firstSeen}, never ready since. */
    static RemediationRecord starting(String node, String firstSeen) {
        return new RemediationRecord("control-plane", "Node " + node, RemediationRecord.State.Pending, "starting", Instant.parse(firstSeen), null, null, false, null, 0, null, "");
    }

    static EngineState recorded(List<RemediationRecord> records) {
        ClusterStatus cp = new ClusterStatus("cp", "clusters/cp.yaml", dev.windlass.policy.state.Reachability.Reachable, "", "ServerSide", 3, 3, List.of(), dev.windlass.policy.state.ClusterState.Healthy, null,
                Instant.parse("2026-11-21T09:00:00Z"), records);
        return EngineState.of("abc", Map.of(), Map.of("cp", cp));
    }

    static final String READY_FALSE = "unhealthyConditions: [{type: Ready, status: \"False\", timeoutSeconds: 60}]";

    @Test
    void aMemberThatDisappearedCountsAsUnhealthySoOneMoreFailureIsBelowQuorum() {
        DesiredState desired = repo(READY_FALSE);
        var d = Remediations.decide(desired, observed(node("n1", "True", "2026-11-21T09:00:00Z", ""),
                node("n2", "False", "2026-11-21T09:59:59Z", "")),
                recorded(List.of(healthy("n1"), pending("n2", "2026-11-21T09:50:00Z"), healthy("n3"))), Suspensions.at(desired, NOW), NOW);
        var cp = d.clusters().get("cp");
        assertEquals(List.of("Node n1:Healthy", "Node n2:Unhealthy", "Node n3:Missing"),
                cp.records().stream().map(r -> r.target() + ":" + r.state()).toList());
        assertEquals(RemediationBlock.Quorum, cp.blockedReason());
        assertTrue(cp.blocked().contains("3 members, 1 healthy"), cp.blocked());
        assertTrue(d.actions().isEmpty(), "nothing marked below quorum");
    }

    @Test
    void aNewMemberJoiningReplacesTheMissingOne() {
        DesiredState desired = repo(READY_FALSE);
        var d = Remediations.decide(desired, observed(node("n1", "True", "2026-11-21T09:00:00Z", ""),
                node("n2", "False", "2026-11-21T09:59:59Z", ""), node("n4", "True", "2026-11-21T09:59:00Z", "")),
                recorded(List.of(healthy("n1"), pending("n2", "2026-11-21T09:50:00Z"), healthy("n3"))), Suspensions.at(desired, NOW), NOW);
        var cp = d.clusters().get("cp");
        assertEquals(List.of("Node n1:Healthy", "Node n2:Marked", "Node n4:Healthy"),
                cp.records().stream().map(r -> r.target() + ":" + r.state()).toList());
        assertEquals(1, d.actions().size(), "1 of 3 unhealthy: marked");
        assertEquals("remediation control-plane: mark unhealthy: Ready=False for 10m", d.actions().get(0).reason().text());
    }

    @Test
    void aTargetNeverReadyWithinTheStartupTimeoutIsUnhealthy() {
        DesiredState desired = repo(READY_FALSE + "\nstartupTimeoutSeconds: 600");
        var young = Remediations.decide(desired, observed(node("n1", "True", "2026-11-21T09:00:00Z", ""),
                node("n2", "True", "2026-11-21T09:00:00Z", ""), node("n3", "Unknown", "", "2026-11-21T08:00:00Z")),
                recorded(List.of(healthy("n1"), healthy("n2"), starting("n3", "2026-11-21T09:55:00Z"))), Suspensions.at(desired, NOW), NOW);
        RemediationRecord n3 = young.clusters().get("cp").records().get(2);
        assertEquals(RemediationRecord.State.Pending, n3.state(), "seen for 5 minutes, whatever the server says its age is: still starting");
        var old = Remediations.decide(desired, observed(node("n1", "True", "2026-11-21T09:00:00Z", ""),
                node("n2", "True", "2026-11-21T09:00:00Z", ""), node("n3", "Unknown", "", "2026-11-21T09:59:00Z")),
                recorded(List.of(healthy("n1"), healthy("n2"), starting("n3", "2026-11-21T09:45:00Z"))), Suspensions.at(desired, NOW), NOW);
        RemediationRecord late = old.clusters().get("cp").records().get(2);
        assertEquals(RemediationRecord.State.Marked, late.state());
        assertEquals("never Ready", late.reason());
        assertEquals(java.time.Instant.parse("2026-11-21T09:45:00Z"), late.unhealthySince(), "since this engine first saw it");
    }

    /** A node this engine saw unhealthy since {@code since}, with {@code attempts} marks made, the last at {@code lastAttempt}. */
    static RemediationRecord unhealthy(String node, RemediationRecord.State state, String since, int attempts, String lastAttempt) {
        return new RemediationRecord("control-plane", "Node " + node, state, "Ready=False", Instant.parse("2026-11-21T09:00:00Z"), Instant.parse(since), null, true,
                null, attempts, lastAttempt == null ? null : Instant.parse(lastAttempt), "");
    }

    @Test
    void aMarkIsAnAttemptSoAFlappingNodeIsMarkedAgainOnlyAfterTheRetryPeriod() {
        DesiredState desired = repo(READY_FALSE);  // Annotate; maxRetry 3, retryPeriodSeconds 300 by default
        ObservedState flapped = observed(node("n1", "True", "", ""), node("n2", "False", "", ""), node("n3", "True", "", ""));
        // Marked at 09:58, healthy a moment (the mark came off), unhealthy again past the timeout.
        var soon = Remediations.decide(desired, flapped, recorded(List.of(healthy("n1"),
                unhealthy("n2", RemediationRecord.State.Pending, "2026-11-21T09:59:00Z", 1, "2026-11-21T09:58:00Z"), healthy("n3"))), Suspensions.at(desired, NOW), NOW);
        RemediationRecord n2 = soon.clusters().get("cp").records().get(1);
        assertEquals(RemediationRecord.State.Unhealthy, n2.state());
        assertEquals(1, n2.attempts());
        assertTrue(soon.actions().isEmpty(), "2 minutes after the last mark: not marked again yet");
        assertEquals("Ready=False", n2.reason(), "the condition; how long it held is in unhealthySince");

        Instant later = NOW.plusSeconds(180);
        var due = Remediations.decide(desired, flapped, recorded(List.of(healthy("n1"), n2, healthy("n3"))), Suspensions.at(desired, later), later);
        assertEquals(1, due.actions().size(), "5 minutes after the last mark: marked again");
        assertEquals(2, due.clusters().get("cp").records().get(1).attempts());
        assertEquals(RemediationRecord.State.Marked, due.clusters().get("cp").records().get(1).state());

        var spent = Remediations.decide(desired, flapped, recorded(List.of(healthy("n1"),
                unhealthy("n2", RemediationRecord.State.Unhealthy, "2026-11-21T09:58:00Z", 3, "2026-11-21T09:50:00Z"), healthy("n3"))), Suspensions.at(desired, NOW), NOW);
        assertEquals(RemediationRecord.State.GaveUp, spent.clusters().get("cp").records().get(1).state(), "maxRetry marks made");
        assertTrue(spent.actions().isEmpty());
    }

    @Test
    void theNextMemberOfAGroupWaitsUntilTheLastMarkIsOff() {
        DesiredState desired = repo(READY_FALSE);
        ObservedState n1BackStillMarked = observed(marked(node("n1", "True", "", "")), node("n2", "False", "", ""),
                node("n3", "True", "", ""), node("n4", "True", "", ""), node("n5", "True", "", ""));
        RemediationRecord n1 = new RemediationRecord("control-plane", "Node n1", RemediationRecord.State.Marked, "Ready=False", Instant.parse("2026-11-21T09:00:00Z"),
                Instant.parse("2026-11-21T09:40:00Z"), null, true, Instant.parse("2026-11-21T09:41:00Z"), 1, Instant.parse("2026-11-21T09:41:00Z"), "");
        var d = Remediations.decide(desired, n1BackStillMarked, recorded(List.of(n1,
                unhealthy("n2", RemediationRecord.State.Unhealthy, "2026-11-21T09:50:00Z", 0, null), healthy("n3"), healthy("n4"), healthy("n5"))),
                Suspensions.at(desired, NOW), NOW);
        assertEquals(List.of("Node n1"), d.actions().stream().map(a -> a.object().kind() + " " + a.object().name()).toList(),
                "only n1's mark comes off in this pass");
        assertTrue(d.actions().get(0).reason().text().contains("mark is removed"), d.actions().get(0).reason().text());
        assertEquals(RemediationBlock.Quorum, d.clusters().get("cp").blockedReason());
        var next = Remediations.decide(desired, observed(node("n1", "True", "", ""), node("n2", "False", "", ""),
                node("n3", "True", "", ""), node("n4", "True", "", ""), node("n5", "True", "", "")),
                recorded(d.clusters().get("cp").records()), Suspensions.at(desired, NOW.plusSeconds(10)), NOW.plusSeconds(10));
        assertEquals(1, next.actions().size(), "n1's mark is off: n2 is marked");
        assertEquals("Node n2", next.clusters().get("cp").records().get(1).target());
        assertEquals(RemediationRecord.State.Marked, next.clusters().get("cp").records().get(1).state());
    }

    @Test
    void aRecordOfThePreviousEngineGoesOnWhereItStood() {
        DesiredState desired = repo(READY_FALSE);
        // As the engine wrote it before records kept since-times only, and before a mark counted as an attempt.
        RemediationRecord old = new RemediationRecord("control-plane", "Node n2", RemediationRecord.State.Marked, "Ready=False for 5m", Instant.parse("2026-11-21T08:00:00Z"),
                Instant.parse("2026-11-21T09:55:00Z"), null, true, Instant.parse("2026-11-21T09:56:00Z"), 0, null, "marked; the owner remediates");
        var d = Remediations.decide(desired, observed(node("n1", "True", "", ""), marked(node("n2", "False", "", "")), node("n3", "True", "", "")),
                recorded(List.of(healthy("n1"), old, healthy("n3"))), Suspensions.at(desired, NOW), NOW);
        RemediationRecord n2 = d.clusters().get("cp").records().get(1);
        assertEquals(RemediationRecord.State.Marked, n2.state());
        assertEquals("Ready=False", n2.reason(), "the condition alone from now on");
        assertEquals(java.time.Instant.parse("2026-11-21T09:55:00Z"), n2.unhealthySince(), "its clock goes on");
        assertEquals(1, n2.attempts(), "its mark counts");
        assertTrue(d.actions().isEmpty(), "still marked: not marked again");
    }

    @Test
    void aNodeWindlassCordonedIsUncordonedOnceHealthyForMinHealthyPeriodButNotWhileTheClusterIsHeld() {
        String files = """
                apiVersion: windlass.dev/v1alpha1
                kind: RemediationPolicy
                metadata: {name: control-plane}
                spec:
                  clusterSelector: {matchLabels: {env: prod}}
                  target: {apiVersion: v1, kind: Node}
                  checks: {unhealthyConditions: [{type: Ready, status: "False", timeoutSeconds: 60}]}
                  remediation: {action: CordonAndDrain, minHealthyPeriodSeconds: 600}
                """;
        RemediationRecord cordoned = new RemediationRecord("control-plane", "Node n2", RemediationRecord.State.Healthy, "", Instant.parse("2026-11-21T09:00:00Z"), null,
                Instant.parse("2026-11-21T09:50:00Z"), true, Instant.parse("2026-11-21T09:30:00Z"), Instant.parse("2026-11-21T09:31:00Z"), 1, Instant.parse("2026-11-21T09:31:00Z"), "");
        ObservedTarget n2 = marked(node("n2", "True", "", ""));
        n2 = new ObservedTarget(n2.kind(), "", "n2", Map.of(), n2.annotations(), n2.conditions(), "", List.of(), true);
        ObservedState seen = observed(node("n1", "True", "", ""), n2, node("n3", "True", "", ""));
        DesiredState desired = RepoParser.parse(RepoFiles.inline("clusters/cp.yaml", CLUSTER.formatted(false), "policies/remediation.yaml", files));
        Instant early = NOW.minusSeconds(60);
        var waiting = Remediations.decide(desired, seen, recorded(List.of(healthy("n1"), cordoned, healthy("n3"))),
                Suspensions.at(desired, early), early);
        assertTrue(waiting.actions().isEmpty(), "healthy for 9 minutes of 10: still cordoned, and marked");
        assertEquals(java.time.Instant.parse("2026-11-21T09:31:00Z"), waiting.clusters().get("cp").records().get(1).cordonedAt());

        var due = Remediations.decide(desired, seen, recorded(List.of(healthy("n1"), cordoned, healthy("n3"))), Suspensions.at(desired, NOW), NOW);
        assertEquals(1, due.actions().size());
        assertEquals(Map.of("metadata", Map.of("annotations", java.util.Collections.singletonMap(Remediations.MARK, null)), "spec", Map.of("unschedulable", false)),
                due.actions().get(0).desired().body(), "uncordoned and unmarked in one patch");
        RemediationRecord after = due.clusters().get("cp").records().get(1);
        assertEquals(null, after.cordonedAt());
        assertEquals(null, after.markedAt());
        assertEquals(0, after.attempts(), "its retries start over");

        DesiredState suspended = RepoParser.parse(RepoFiles.inline("clusters/cp.yaml", CLUSTER.formatted(true), "policies/remediation.yaml", files));
        var held = Remediations.decide(suspended, seen, recorded(List.of(healthy("n1"), cordoned, healthy("n3"))),
                Suspensions.at(suspended, NOW), NOW);
        assertTrue(held.actions().isEmpty(), "a suspended cluster is not changed, not even uncordoned");
        assertEquals(java.time.Instant.parse("2026-11-21T09:31:00Z"), held.clusters().get("cp").records().get(1).cordonedAt(), "it will be, once resumed");
    }

    static final String CLUSTER = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: cp, labels: {env: prod}}
            spec: {connection: {sandbox: {nodes: 3, controlPlaneNodes: 3}}, suspend: %s}
            """;
}
