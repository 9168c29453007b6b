package dev.windlass.policy.remediation;

import java.time.Instant;
import static dev.windlass.policy.remediation.RemediationsTest.NODE;
import static dev.windlass.policy.remediation.RemediationsTest.NOW;
import static dev.windlass.policy.remediation.RemediationsTest.observed;
import static dev.windlass.policy.remediation.RemediationsTest.recorded;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.suspension.Suspensions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Two RemediationPolicies over one consensus group: zones a+b and zones b+c of a five-member control plane share the
 * member in zone b. Each alone marks one member; together they would mark two at once (each counting only its own),
 * so both are errors and neither acts: a group never has two members in flight.
 */
class OverlappingPoliciesTest {
    static final String CLUSTER = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: cp, labels: {env: prod}}
            spec: {connection: {sandbox: {nodes: 5, controlPlaneNodes: 5}}}
            """;

    static String policy(String name, String zones) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: RemediationPolicy
                metadata: {name: %s}
                spec:
                  clusterSelector: {matchLabels: {env: prod}}
                  target:
                    apiVersion: v1
                    kind: Node
                    selector: {matchExpressions: [{key: zone, operator: In, values: [%s]}]}
                  checks:
                    unhealthyConditions: [{type: Ready, status: "False", timeoutSeconds: 60}]
                  remediation: {quorum: true, action: CordonAndDrain}
                """.formatted(name, zones);
    }

    static DesiredState repo(String... pathThenContent) {
        List<String> files = new ArrayList<>(List.of("clusters/cp.yaml", CLUSTER));
        files.addAll(List.of(pathThenContent));
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    static ObservedTarget node(String name, String zone, String ready) {
        return new ObservedTarget(NODE, "", name, Map.of("zone", zone), Map.of(), List.of(new ObservedTarget.Condition("Ready", ready, "", "", "")),
                "", List.of(), false);
    }

    /** n1 (zone a) and n5 (zone c) have been NotReady for ten minutes, as this engine saw it under either policy. */
    static final ObservedState TWO_DOWN = observed(node("n1", "a", "False"), node("n2", "a", "True"), node("n3", "b", "True"),
            node("n4", "c", "True"), node("n5", "c", "False"));

    static RemediationRecord down(String policy, String node) {
        return new RemediationRecord(policy, "Node " + node, RemediationRecord.State.Unhealthy, "Ready=False", Instant.parse("2026-11-21T09:00:00Z"), Instant.parse("2026-11-21T09:50:00Z"), null, true,
                null, 0, null, "");
    }

    static List<String> marked(DesiredState desired) {
        var state = recorded(List.of(down("zones-ab", "n1"), down("zones-bc", "n5")));
        return Remediations.decide(desired, TWO_DOWN, state, Suspensions.at(desired, NOW), NOW).actions().stream()
                .map(a -> a.object().name()).toList();
    }

    @Test
    void eachPolicyAloneMarksOneMember() {
        assertEquals(List.of("n1"), marked(repo("policies/ab.yaml", policy("zones-ab", "a, b"))));
        assertEquals(List.of("n5"), marked(repo("policies/bc.yaml", policy("zones-bc", "b, c"))));
    }

    @Test
    void twoPoliciesSharingAMemberAreErrorsAtBothFilesAndNeitherMarksAnything() {
        DesiredState both = repo("policies/ab.yaml", policy("zones-ab", "a, b"), "policies/bc.yaml", policy("zones-bc", "b, c"));
        assertEquals(List.of(
                "policies/ab.yaml:9:15: RemediationPolicy zones-ab may remediate the same Node objects as RemediationPolicy zones-bc "
                        + "(policies/bc.yaml:9:15) on cluster cp; a target is governed by one policy: make the target selectors exclusive "
                        + "(a label one requires and the other excludes with DoesNotExist or NotIn) or the cluster selectors disjoint (until then neither is used)",
                "policies/bc.yaml:9:15: RemediationPolicy zones-bc may remediate the same Node objects as RemediationPolicy zones-ab "
                        + "(policies/ab.yaml:9:15) on cluster cp; a target is governed by one policy: make the target selectors exclusive "
                        + "(a label one requires and the other excludes with DoesNotExist or NotIn) or the cluster selectors disjoint (until then neither is used)"),
                both.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList());
        assertEquals(Set.of(), both.remediationPolicies().keySet());
        assertEquals(Set.of("policies/ab.yaml", "policies/bc.yaml"), both.brokenFiles());
        assertEquals(List.of(), marked(both), "no member is marked, so never two at once");
    }

    @Test
    void identicalPoliciesOverlapTooSoNoTargetGetsTwoRetryBudgets() {
        DesiredState twice = repo("policies/ab.yaml", policy("zones-ab", "a, b") + "---\n" + policy("zones-ab-copy", "a, b"));
        assertEquals(Set.of(), twice.remediationPolicies().keySet(), "neither is used");
        assertEquals(List.of(), marked(twice));
    }

    @Test
    void exclusiveSelectorsAreNoOverlap() {
        DesiredState apart = repo("policies/a.yaml", policy("zone-a", "a"), "policies/c.yaml", policy("zone-c", "c").replace(
                "{matchExpressions: [{key: zone, operator: In, values: [c]}]}",
                "{matchExpressions: [{key: zone, operator: Exists}, {key: zone, operator: NotIn, values: [a]}]}"));
        assertEquals(List.of(), apart.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList());
        assertEquals(Set.of("zone-a", "zone-c"), apart.remediationPolicies().keySet());
    }
}
