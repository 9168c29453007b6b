package dev.windlass.policy.review;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.NodeObservation;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.plan.Planner;
import dev.windlass.policy.state.EngineState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A branch that changes a remediation policy's reach says so in words, with the quorum it would break. */
class PolicyEffectsTest {
    static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    static final KindRef NODE = new KindRef("v1", "Node");
    static final String CLUSTER = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: cp, labels: {env: prod}}
            spec: {connection: {sandbox: {nodes: 3, controlPlaneNodes: 3}}}
            """;

    static DesiredState repo(String remediation) {
        if (remediation == null) return RepoParser.parse(RepoFiles.inline("clusters/cp.yaml", CLUSTER));
        return RepoParser.parse(RepoFiles.inline("clusters/cp.yaml", CLUSTER, "policies/remediation.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: RemediationPolicy
                metadata: {name: control-plane}
                spec:
                  clusterSelector: {matchLabels: {env: prod}}
                  target: {apiVersion: v1, kind: Node}
                  checks:
                    unhealthyConditions: [{type: Ready, status: "False", timeoutSeconds: 60}]
                  remediation: %s
                """.formatted(remediation)));
    }

    static ObservedState threeReadyNodes() {
        List<ObservedTarget> nodes = new ArrayList<>();
        List<NodeObservation> seen = new ArrayList<>();
        for (String n : List.of("cp-0", "cp-1", "cp-2")) {
            nodes.add(new ObservedTarget(NODE, "", n, Map.of(), Map.of(), List.of(new ObservedTarget.Condition("Ready", "True", "", "", "")),
                    "", List.of(), false));
            seen.add(new NodeObservation(n, Map.of(), true));
        }
        return new ObservedState(Map.of("cp", new ClusterObservation("cp", dev.windlass.policy.state.Reachability.Reachable, "", Map.of(), Set.of(),
                seen, true, Map.of(), "", Map.of(NODE, nodes))));
    }

    static List<String> effects(DesiredState base, DesiredState head) {
        ObservedState observed = threeReadyNodes();
        return PolicyEffects.of(new ReviewInput("feature/x", 0, "main", "b", "h", "m", List.of(), base,
                Planner.plan(base, observed, EngineState.EMPTY, NOW), head, Planner.plan(head, observed, EngineState.EMPTY, NOW), observed, List.of()));
    }

    @Test void wideningTriggerIfBelowQuorumIsCalledOut() {
        DesiredState base = repo("{quorum: false, triggerIf: {unhealthyLessThanOrEqualTo: 1}}");
        DesiredState head = repo("{quorum: false, triggerIf: {unhealthyLessThanOrEqualTo: 2}}");
        assertEquals(List.of("**Remediation** control-plane on cp: triggerIf now allows 2 of 3 Nodes (was 1) — below quorum: remediating 2 leaves 1 "
                + "of 3, quorum needs 2; quorum is not checked (quorum: false), so a consensus group could lose it."), effects(base, head));
    }

    @Test void aNewPolicyWithQuorumSaysQuorumStillGuardsIt() {
        assertEquals(List.of("**Remediation** control-plane on cp: triggerIf allows 3 of 3 Nodes — below quorum: remediating 3 leaves 0 of 3, "
                + "quorum needs 2; quorum: true still acts on one at a time and never below quorum."), effects(repo(null), repo("{quorum: true}")));
    }

    @Test void aPolicyThatStaysWithinQuorumOrDoesNotChangeSaysNothingAlarming() {
        assertEquals(List.of("**Remediation** control-plane on cp: triggerIf now allows 1 of 3 Nodes (was 3)."),
                effects(repo("{quorum: true}"), repo("{quorum: true, triggerIf: {unhealthyLessThanOrEqualTo: \"40%\"}}")));
        assertEquals(List.of(), effects(repo("{quorum: true}"), repo("{quorum: true}")));
    }

    @Test void removingAPolicyIsNoted() {
        assertEquals(List.of("**Remediation** control-plane is removed: its targets are no longer watched, marks stay until removed by hand."),
                effects(repo("{quorum: true}"), repo(null)));
    }
}
