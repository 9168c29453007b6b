package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.model.RemediationPolicy.Action;
import dev.windlass.policy.model.RemediationPolicy.ConditionStatus;
import dev.windlass.policy.model.RemediationPolicy.Target;
import dev.windlass.policy.model.RemediationPolicy.UnhealthyCondition;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RemediationPolicyParseTest {
    static final String PATH = "policies/remediation.yaml";
    static final String POLICY = """
            apiVersion: windlass.dev/v1alpha1
            kind: RemediationPolicy
            metadata: {name: control-plane}
            spec:
              clusterSelector: {matchLabels: {env: prod}}
              target:
                apiVersion: v1
                kind: Node
                selector: {matchLabels: {node-role.kubernetes.io/control-plane: ""}}
              checks:
                unhealthyConditions:
                  - {type: Ready, status: "False", timeoutSeconds: 300}
                  - {type: Ready, status: Unknown, timeoutSeconds: 300}
                startupTimeoutSeconds: 600
              remediation:
                triggerIf: {unhealthyLessThanOrEqualTo: 40%}
                quorum: true
                action: CordonAndDrain
                maxInFlight: 1
                maxRetry: 2
                retryPeriodSeconds: 120
                minHealthyPeriodSeconds: 1800
            """;
    static final String MINIMAL = """
            apiVersion: windlass.dev/v1alpha1
            kind: RemediationPolicy
            metadata: {name: workers}
            spec:
              clusterSelector: {}
              target: {apiVersion: v1, kind: Node}
              checks:
                unhealthyConditions: [{type: Ready, status: "False", timeoutSeconds: 0}]
            """;

    /** Every Node but the control plane's: no target of {@link #POLICY}. */
    static final String WORKERS = MINIMAL.replace("target: {apiVersion: v1, kind: Node}", "target: {apiVersion: v1, kind: Node, selector: "
            + "{matchExpressions: [{key: node-role.kubernetes.io/control-plane, operator: DoesNotExist}]}}");

    /** The examples repo (apps web, api, cache; clusters eu-1, eu-2, us-1) plus one file. */
    static DesiredState parse(String text) {
        List<String> files = new ArrayList<>();
        var examples = RepoFiles.examples();
        examples.files().keySet().forEach(p -> {
            files.add(p);
            files.add(new String(examples.read(p), StandardCharsets.UTF_8));
        });
        files.add(PATH);
        files.add(text);
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    static List<String> warnings(DesiredState s) { return s.diagnostics().stream().filter(d -> !d.isError()).map(Object::toString).toList(); }

    static List<String> invalidApps(DesiredState s) { return s.apps().values().stream().filter(a -> !a.valid()).map(a -> a.name()).toList(); }

    @Test
    void aFullPolicyIsRead() {
        DesiredState s = parse(POLICY);
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        RemediationPolicy p = s.remediationPolicies().get("control-plane");
        assertEquals(new RemediationPolicy("control-plane", new LabelSelector(Map.of("env", "prod"), List.of()),
                new Target("v1", "Node", new LabelSelector(Map.of("node-role.kubernetes.io/control-plane", ""), List.of())),
                List.of(new UnhealthyCondition("Ready", ConditionStatus.False, 300), new UnhealthyCondition("Ready", ConditionStatus.Unknown, 300)),
                600, new RemediationPolicy.AtMost(new Amount(40, true)), true, Action.CordonAndDrain, 1, 2, 120, 1800, p.location()), p);
        assertEquals("policies/remediation.yaml:1:1", p.location().toString());
        assertEquals(Set.of(), s.brokenFiles());
        assertEquals(List.of(), invalidApps(s), "a fleet-level policy touches no application");
    }

    @Test
    void leftOutFieldsTakeTheirDefaults() {
        DesiredState s = parse(MINIMAL);
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        RemediationPolicy p = s.remediationPolicies().get("workers");
        assertEquals(new RemediationPolicy("workers", LabelSelector.EVERYTHING, new Target("v1", "Node", LabelSelector.EVERYTHING),
                List.of(new UnhealthyCondition("Ready", ConditionStatus.False, 0)), 0, RemediationPolicy.Gate.ALWAYS, false, Action.Annotate,
                1, 3, 300, 3600, p.location()), p);
        assertEquals(new RemediationPolicy.Always(), p.triggerIf(), "no triggerIf: whatever the number unhealthy");

        RemediationPolicy q = parse(MINIMAL + "  remediation: {}\n").remediationPolicies().get("workers");
        assertEquals(p, q, "an empty remediation is all defaults");
    }

    @Test
    void triggerIfTakesACountOrARange() {
        RemediationPolicy count = parse(POLICY.replace("40%", "2")).remediationPolicies().get("control-plane");
        assertEquals(new RemediationPolicy.AtMost(new Amount(2, false)), count.triggerIf());
        RemediationPolicy range = parse(POLICY.replace("unhealthyLessThanOrEqualTo: 40%", "unhealthyInRange: \"[1-2]\"")).remediationPolicies().get("control-plane");
        assertEquals(new RemediationPolicy.InRange(1, 2), range.triggerIf());
        RemediationPolicy one = parse(POLICY.replace("unhealthyLessThanOrEqualTo: 40%", "unhealthyInRange: \"[0-0]\"")).remediationPolicies().get("control-plane");
        assertEquals(new RemediationPolicy.InRange(0, 0), one.triggerIf(), "min equal to max is one number");
    }

    @Test
    void restartFitsWorkloadsAndDeleteFitsAnything() {
        String deployments = POLICY.replace("apiVersion: v1\n    kind: Node", "apiVersion: apps/v1\n    kind: StatefulSet");
        DesiredState s = parse(deployments.replace("action: CordonAndDrain", "action: Restart"));
        assertEquals(List.of(), errors(s));
        assertEquals(Action.Restart, s.remediationPolicies().get("control-plane").action());
        assertEquals(List.of(), errors(parse(POLICY.replace("kind: Node", "kind: Pod").replace("action: CordonAndDrain", "action: Delete"))));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of(POLICY.replace("kind: Node", "kind: Deployment"),
                        "policies/remediation.yaml:18:13: RemediationPolicy.spec.remediation.action CordonAndDrain only applies to Nodes, "
                                + "and the target is a Deployment; use Annotate, Delete or Restart for a Deployment"),
                Arguments.of(POLICY.replace("action: CordonAndDrain", "action: Restart"),
                        "policies/remediation.yaml:18:13: RemediationPolicy.spec.remediation.action Restart only applies to Deployments, StatefulSets "
                                + "and DaemonSets, and the target is a Node; use Annotate, Delete or CordonAndDrain for a Node"),
                Arguments.of(POLICY.replace("action: CordonAndDrain", "action: Reboot"),
                        "policies/remediation.yaml:18:13: RemediationPolicy.spec.remediation.action is 'Reboot'; use one of Annotate, Delete, CordonAndDrain, Restart"),
                Arguments.of(POLICY.replace("{unhealthyLessThanOrEqualTo: 40%}", "{unhealthyLessThanOrEqualTo: 40%, unhealthyInRange: \"[1-2]\"}"),
                        "policies/remediation.yaml:16:16: RemediationPolicy.spec.remediation.triggerIf has both unhealthyLessThanOrEqualTo and "
                                + "unhealthyInRange; keep one"),
                Arguments.of(POLICY.replace("{unhealthyLessThanOrEqualTo: 40%}", "{}"),
                        "policies/remediation.yaml:16:16: RemediationPolicy.spec.remediation.triggerIf needs unhealthyLessThanOrEqualTo (a count, "
                                + "or a percentage such as \"40%\") or unhealthyInRange (such as \"[1-2]\"); leave triggerIf out to remediate however "
                                + "many targets are unhealthy"),
                Arguments.of(POLICY.replace("unhealthyLessThanOrEqualTo: 40%", "unhealthyInRange: \"[3-1]\""),
                        "policies/remediation.yaml:16:35: RemediationPolicy.spec.remediation.triggerIf.unhealthyInRange is '[3-1]': 3 is more than 1; "
                                + "write the smaller number first: \"[1-3]\""),
                Arguments.of(POLICY.replace("unhealthyLessThanOrEqualTo: 40%", "unhealthyInRange: \"1-2\""),
                        "policies/remediation.yaml:16:35: RemediationPolicy.spec.remediation.triggerIf.unhealthyInRange is '1-2'; write \"[min-max]\" "
                                + "with whole numbers of at least 0, such as \"[1-2]\""),
                Arguments.of(POLICY.replace("unhealthyLessThanOrEqualTo: 40%", "unhealthyInRange: [1-2]"),
                        "policies/remediation.yaml:16:35: RemediationPolicy.spec.remediation.triggerIf.unhealthyInRange must be a quoted string such as "
                                + "\"[1-2]\" (unquoted, YAML reads [1-2] as a list)"),
                Arguments.of(POLICY.replace("40%", "140%"),
                        "policies/remediation.yaml:16:45: RemediationPolicy.spec.remediation.triggerIf.unhealthyLessThanOrEqualTo is '140%'; "
                                + "write a whole number of at least 0 or a percentage such as \"25%\""),
                Arguments.of(POLICY.replace("status: \"False\"", "status: False"),
                        "policies/remediation.yaml:12:31: RemediationPolicy.spec.checks.unhealthyConditions[0].status is the YAML boolean False; "
                                + "quote it: status: \"False\""),
                Arguments.of(POLICY.replace("status: Unknown", "status: Maybe"),
                        "policies/remediation.yaml:13:31: RemediationPolicy.spec.checks.unhealthyConditions[1].status is 'Maybe'; use one of True, False, Unknown"),
                Arguments.of(POLICY.replace("status: Unknown", "status: \"False\""),
                        "policies/remediation.yaml:13:16: RemediationPolicy.spec.checks.unhealthyConditions[1].type Ready with status False appears twice "
                                + "in RemediationPolicy.spec.checks.unhealthyConditions; keep one"),
                Arguments.of(POLICY.replace(", timeoutSeconds: 300}\n      - {type: Ready, status: Unknown", "}\n      - {type: Ready, status: Unknown"),
                        "policies/remediation.yaml:12:9: RemediationPolicy.spec.checks.unhealthyConditions[0].timeoutSeconds is required: how long the "
                                + "condition must hold before the target counts as unhealthy (0: at once)"),
                Arguments.of(POLICY.replace("""
                            unhealthyConditions:
                              - {type: Ready, status: "False", timeoutSeconds: 300}
                              - {type: Ready, status: Unknown, timeoutSeconds: 300}
                        """, "    unhealthyConditions: []\n"),
                        "policies/remediation.yaml:11:26: RemediationPolicy.spec.checks.unhealthyConditions needs at least one condition, "
                                + "e.g. {type: Ready, status: \"False\", timeoutSeconds: 300}"),
                Arguments.of(POLICY.replace("startupTimeoutSeconds: 600", "startupTimeoutSeconds: -1"),
                        "policies/remediation.yaml:14:28: RemediationPolicy.spec.checks.startupTimeoutSeconds must be a whole number of at least 0"),
                Arguments.of(POLICY.replace("maxInFlight: 1", "maxInFlight: 0"),
                        "policies/remediation.yaml:19:18: RemediationPolicy.spec.remediation.maxInFlight must be a whole number of at least 1"),
                Arguments.of(POLICY.replace("maxRetry: 2", "maxRetry: -1"),
                        "policies/remediation.yaml:20:15: RemediationPolicy.spec.remediation.maxRetry must be a whole number of at least 0"),
                Arguments.of(POLICY.replace("quorum: true", "quorum: \"yes\""),
                        "policies/remediation.yaml:17:13: RemediationPolicy.spec.remediation.quorum must be true or false"),
                Arguments.of(POLICY.replace("    kind: Node\n", ""),
                        "policies/remediation.yaml:7:5: RemediationPolicy.spec.target.kind is required"),
                Arguments.of(POLICY.replace("  clusterSelector: {matchLabels: {env: prod}}\n", ""),
                        "policies/remediation.yaml:5:3: RemediationPolicy.spec.clusterSelector is required: which clusters it acts on ({} for all)"),
                Arguments.of(POLICY.replace("minHealthyPeriodSeconds: 1800", "minHealthyPeriodSeconds: 1800\n    maxUnhealthy: 2"),
                        "policies/remediation.yaml:23:5: unknown field 'maxUnhealthy' in RemediationPolicy.spec.remediation; known fields: "
                                + "triggerIf, quorum, action, maxInFlight, maxRetry, retryPeriodSeconds, minHealthyPeriodSeconds"));
    }

    @ParameterizedTest
    @MethodSource("mistakes")
    void aMistakeIsReportedWhereItIsAndThePolicyIsDropped(String policy, String expected) {
        DesiredState s = parse(policy);
        assertEquals(List.of(expected), errors(s));
        assertEquals(Map.of(), s.remediationPolicies(), "never half-used");
        assertEquals(Set.of(PATH), s.brokenFiles(), "its file counts as broken, like a Cluster with errors");
        assertEquals(List.of(), invalidApps(s), "it selects clusters, not applications: no application is held");
    }

    @Test
    void missingPartsAreRequired() {
        DesiredState noSpec = parse("apiVersion: windlass.dev/v1alpha1\nkind: RemediationPolicy\nmetadata: {name: x}\n");
        assertEquals(List.of("policies/remediation.yaml:1:1: RemediationPolicy.spec is required, with clusterSelector, target and checks"), errors(noSpec));
        DesiredState empty = parse("apiVersion: windlass.dev/v1alpha1\nkind: RemediationPolicy\nmetadata: {name: x}\nspec: {}\n");
        assertEquals(List.of(
                "policies/remediation.yaml:4:7: RemediationPolicy.spec.checks is required, with at least one entry in unhealthyConditions, "
                        + "e.g. {unhealthyConditions: [{type: Ready, status: \"False\", timeoutSeconds: 300}]}",
                "policies/remediation.yaml:4:7: RemediationPolicy.spec.clusterSelector is required: which clusters it acts on ({} for all)",
                "policies/remediation.yaml:4:7: RemediationPolicy.spec.target is required: the objects it remediates, e.g. {apiVersion: v1, kind: Node}"),
                errors(empty));
        assertEquals(Map.of(), empty.remediationPolicies());
    }

    @Test
    void quorumWithMoreThanOneInFlightIsAWarning() {
        DesiredState s = parse(POLICY.replace("maxInFlight: 1", "maxInFlight: 3"));
        assertEquals(List.of(), errors(s));
        assertEquals(List.of("policies/remediation.yaml:19:18: warning: RemediationPolicy.spec.remediation.maxInFlight is 3, but with quorum: true "
                + "only one remediation is in flight at a time; set maxInFlight: 1"), warnings(s));
        assertEquals(3, s.remediationPolicies().get("control-plane").maxInFlight(), "a warning leaves the policy usable");
        assertEquals(List.of(), warnings(parse(POLICY.replace("maxInFlight: 1", "maxInFlight: 3").replace("quorum: true", "quorum: false"))));
    }

    @Test
    void twoPoliciesOfTheSameNameAreErrorsAtBothAndNeitherIsUsed() {
        DesiredState s = parse(POLICY + "---\n" + MINIMAL.replace("workers", "control-plane"));
        assertEquals(List.of(
                "policies/remediation.yaml:3:18: RemediationPolicy 'control-plane' is also defined at policies/remediation.yaml:26:18; a name may be defined once: rename or remove one (until then neither is used)",
                "policies/remediation.yaml:26:18: RemediationPolicy 'control-plane' is also defined at policies/remediation.yaml:3:18; a name may be defined once: rename or remove one (until then neither is used)"),
                errors(s));
        assertEquals(Set.of(), s.remediationPolicies().keySet(), "neither is used");
        assertEquals(Set.of(PATH), s.brokenFiles());
        DesiredState two = parse(POLICY + "---\n" + WORKERS);
        assertEquals(List.of(), errors(two));
        assertEquals(List.of("control-plane", "workers"), List.copyOf(two.remediationPolicies().keySet()));
    }

    @Test
    void remediationPolicyIsAKnownKindNoLongerRefused() {
        assertFalse(RepoParser.LATER_KINDS.contains("RemediationPolicy"));
        assertFalse(errors(parse(MINIMAL)).stream().anyMatch(e -> e.contains("not supported")));
        DesiredState typo = parse("apiVersion: windlass.dev/v1alpha1\nkind: RemediationPolicie\nmetadata: {name: x}\nspec: {}\n");
        assertEquals(List.of("policies/remediation.yaml:1:1: unknown kind 'RemediationPolicie' for windlass.dev/v1alpha1; known kinds: Settings, Cluster, "
                + "Application, RolloutPolicy, FailoverPolicy, RemediationPolicy, Freeze, Provider, Alert"), errors(typo));
        DesiredState otherGroup = parse(MINIMAL.replace("windlass.dev/v1alpha1", "example.com/v1"));
        assertTrue(errors(otherGroup).contains("policies/remediation.yaml:1:1: kind RemediationPolicy needs apiVersion: windlass.dev/v1alpha1"),
                errors(otherGroup).toString());
    }
}
