package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FailoverPolicy;
import dev.windlass.policy.model.FailoverPolicy.PurgeMode;
import dev.windlass.policy.model.FailoverPolicy.StateRule;
import dev.windlass.policy.model.FailoverPolicy.Trigger;
import dev.windlass.policy.model.FailoverSettings;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import dev.windlass.policy.model.Settings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FailoverPolicyParseTest {
    static final String PATH = "policies/failover.yaml";
    static final String POLICY = """
            apiVersion: windlass.dev/v1alpha1
            kind: FailoverPolicy
            metadata: {name: stateful}
            spec:
              selector: {matchLabels: {tier: frontend}}
              application:
                tolerationSeconds: 120
                purgeMode: Gracefully
                gracePeriodSeconds: 900
                statePreservation:
                  rules:
                    - {aliasLabelName: windlass.dev/last-offset, jsonPath: "{ .status.offset }"}
              cluster:
                purgeMode: Directly
              historyLimit: 5
            """;
    static final String HELD_WEB = "apps/web/app.yaml:1:1: Application web may be moved by FailoverPolicy stateful (policies/failover.yaml:1:1), "
            + "which has errors; nothing is applied until it is fixed";

    /** The examples repo (web: frontend, api: backend, cache: data; clusters eu-1, eu-2, us-1) plus one file. */
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

    static List<String> invalidApps(DesiredState s) {
        return s.apps().values().stream().filter(a -> !a.valid()).map(a -> a.name()).toList();
    }

    @Test
    void aFullPolicyIsReadAndSelectsItsApplications() {
        DesiredState s = parse(POLICY);
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        FailoverPolicy p = s.failoverPolicy("web");
        List<StateRule> rules = List.of(new StateRule("windlass.dev/last-offset", "{ .status.offset }"));
        assertEquals(new FailoverPolicy("stateful", new LabelSelector(Map.of("tier", "frontend"), List.of()),
                new Trigger(120, PurgeMode.Gracefully, 900, rules),
                new Trigger(null, PurgeMode.Directly, 0, List.of()),
                5, p.location()), p);
        assertEquals("policies/failover.yaml:1:1", p.location().toString());
        assertNull(p.cluster().tolerationSeconds(), "left out: the Cluster's unreachableTolerationSeconds applies");
        assertEquals(rules, p.rulesFor(p.cluster()), "the cluster trigger falls back to the application trigger's rules");
        assertEquals(Map.of("web", "stateful"), s.failoverOf());
        assertEquals(List.of("stateful"), List.copyOf(s.failoverPolicies().keySet()));
        assertNull(s.failoverPolicy("api"), "api is not a frontend");
        assertEquals(List.of(), invalidApps(s));
    }

    @Test
    void leftOutFieldsTakeTheirDefaults() {
        DesiredState s = parse("""
                apiVersion: windlass.dev/v1alpha1
                kind: FailoverPolicy
                metadata: {name: defaults}
                spec:
                  selector: {}
                  application: {}
                """);
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        FailoverPolicy p = s.failoverPolicy("cache");
        assertEquals(new Trigger(300, PurgeMode.Gracefully, 600, List.of()), p.application());
        assertNull(p.cluster(), "no cluster trigger: an unreachable cluster never moves the app");
        assertEquals(FailoverPolicy.DEFAULT_HISTORY_LIMIT, p.historyLimit());
        assertEquals(Map.of("api", "defaults", "cache", "defaults", "greeter", "defaults", "shop", "defaults", "web", "defaults"), s.failoverOf(), "{} selects every application");

        DesiredState c = parse(POLICY.replace("""
                  application:
                    tolerationSeconds: 120
                    purgeMode: Gracefully
                    gracePeriodSeconds: 900
                    statePreservation:
                      rules:
                        - {aliasLabelName: windlass.dev/last-offset, jsonPath: "{ .status.offset }"}
                """, "").replace("purgeMode: Directly", "tolerationSeconds: 0\n    purgeMode: Never"));
        assertEquals(List.of(), errors(c));
        FailoverPolicy q = c.failoverPolicy("web");
        assertNull(q.application());
        assertEquals(new Trigger(0, PurgeMode.Never, 0, List.of()), q.cluster(), "0 moves at once");
        assertEquals(List.of(), q.rulesFor(q.cluster()));
    }

    @Test
    void oldPurgeModeNamesAreReadWithAWarning() {
        DesiredState s = parse(POLICY.replace("purgeMode: Gracefully", "purgeMode: Graciously").replace("purgeMode: Directly", "purgeMode: Immediately"));
        assertEquals(List.of(), errors(s));
        assertEquals(List.of(
                "policies/failover.yaml:8:16: warning: FailoverPolicy.spec.application.purgeMode 'Graciously' is the old name of 'Gracefully'; write Gracefully",
                "policies/failover.yaml:14:16: warning: FailoverPolicy.spec.cluster.purgeMode 'Immediately' is the old name of 'Directly'; write Directly"),
                warnings(s));
        FailoverPolicy p = s.failoverPolicy("web");
        assertEquals(PurgeMode.Gracefully, p.application().purgeMode());
        assertEquals(900, p.application().gracePeriodSeconds());
        assertEquals(PurgeMode.Directly, p.cluster().purgeMode());
        assertEquals(List.of(), invalidApps(s), "a warning holds nothing");
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of(POLICY.replace("purgeMode: Directly", "purgeMode: Later"),
                        "policies/failover.yaml:14:16: FailoverPolicy.spec.cluster.purgeMode is 'Later'; use one of Directly, Gracefully, Never"),
                Arguments.of(POLICY.replace("purgeMode: Gracefully", "purgeMode: Directly"),
                        "policies/failover.yaml:9:25: FailoverPolicy.spec.application.gracePeriodSeconds only applies with purgeMode Gracefully; "
                                + "remove it or set purgeMode: Gracefully"),
                Arguments.of(POLICY.replace("purgeMode: Directly", "purgeMode: Never\n    gracePeriodSeconds: 60"),
                        "policies/failover.yaml:15:25: FailoverPolicy.spec.cluster.gracePeriodSeconds only applies with purgeMode Gracefully; "
                                + "remove it or set purgeMode: Gracefully"),
                Arguments.of(POLICY.replace("windlass.dev/last-offset", "windlass.dev/-offset"),
                        "policies/failover.yaml:12:28: FailoverPolicy.spec.application.statePreservation.rules[0].aliasLabelName 'windlass.dev/-offset' "
                                + "is not a valid label key: the name after '/' must be 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"),
                Arguments.of(POLICY.replace("windlass.dev/last-offset", "Windlass.dev/offset"),
                        "policies/failover.yaml:12:28: FailoverPolicy.spec.application.statePreservation.rules[0].aliasLabelName 'Windlass.dev/offset' "
                                + "is not a valid label key: the prefix before '/' must be a DNS subdomain (lowercase letters, digits, '-' and '.', "
                                + "at most 253 characters), e.g. windlass.dev/last-offset"),
                Arguments.of(POLICY.replace("\"{ .status.offset }\"}", "\"{ .status.offset }\"}\n        - {aliasLabelName: windlass.dev/last-offset, jsonPath: \"{ .status.lag }\"}"),
                        "policies/failover.yaml:13:28: FailoverPolicy.spec.application.statePreservation.rules[1].aliasLabelName 'windlass.dev/last-offset' "
                                + "appears twice in FailoverPolicy.spec.application.statePreservation.rules; each rule writes its own label"),
                Arguments.of(POLICY.replace("\"{ .status.offset }\"", "\".status.offset\""),
                        "policies/failover.yaml:12:64: FailoverPolicy.spec.application.statePreservation.rules[0].jsonPath '.status.offset' "
                                + "is not a JSONPath template; write it in braces, e.g. \"{ .status.offset }\""),
                Arguments.of(POLICY.replace("historyLimit: 5", "historyLimit: 0"),
                        "policies/failover.yaml:15:17: FailoverPolicy.spec.historyLimit must be a whole number of at least 1"),
                Arguments.of(POLICY.replace("tolerationSeconds: 120", "tolerationSeconds: -1"),
                        "policies/failover.yaml:7:24: FailoverPolicy.spec.application.tolerationSeconds must be a whole number of at least 0"),
                Arguments.of(POLICY.replace("purgeMode: Directly", "purgeMode: Directly\n    after: 5m"),
                        "policies/failover.yaml:15:5: unknown field 'after' in FailoverPolicy.spec.cluster; known fields: "
                                + "tolerationSeconds, purgeMode, gracePeriodSeconds, statePreservation"));
    }

    @ParameterizedTest
    @MethodSource("mistakes")
    void aMistakeIsReportedWhereItIsAndHoldsTheAppsThePolicySelects(String policy, String expected) {
        DesiredState s = parse(policy);
        assertEquals(List.of(HELD_WEB, expected), errors(s));
        assertEquals(List.of("web"), invalidApps(s), "api and cache are not frontends");
        assertEquals(Map.of(), s.failoverPolicies(), "never half-used");
        assertEquals(Map.of(), s.failoverOf());
        assertNull(s.failoverPolicy("web"));
    }

    @Test
    void aPolicyWithNeitherTriggerIsAnErrorAndHoldsWhatItSelects() {
        DesiredState s = parse("""
                apiVersion: windlass.dev/v1alpha1
                kind: FailoverPolicy
                metadata: {name: nothing}
                spec:
                  selector: {}
                  historyLimit: 3
                """);
        assertTrue(errors(s).contains("policies/failover.yaml:5:3: a FailoverPolicy needs `application`, `cluster` or both; without them it never moves anything"),
                errors(s).toString());
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), invalidApps(s), "{} selects every application");
        assertTrue(s.apps().get("api").diagnostics().stream().map(Diagnostic::message).anyMatch(m -> m.contains("FailoverPolicy nothing (policies/failover.yaml:1:1)")));
    }

    @Test
    void aPolicyWhoseSelectorCannotBeReadHoldsEveryApplication() {
        DesiredState s = parse(POLICY.replace("{matchLabels: {tier: frontend}}", "{matchLabels: {tier: [frontend]}}"));
        assertTrue(errors(s).contains("policies/failover.yaml:5:34: FailoverPolicy.spec.selector.matchLabels.tier must be a string; quote the value (\"...\")"),
                errors(s).toString());
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), invalidApps(s));
        DesiredState noSpec = parse("apiVersion: windlass.dev/v1alpha1\nkind: FailoverPolicy\nmetadata: {name: x}\n");
        assertTrue(errors(noSpec).contains("policies/failover.yaml:1:1: FailoverPolicy.spec is required, with selector and application, cluster or both"),
                errors(noSpec).toString());
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), invalidApps(noSpec));
    }

    @Test
    void twoPoliciesSelectingOneAppMakeItInvalid() {
        DesiredState s = parse(POLICY + "---\n" + POLICY.replace("stateful", "second").replace("{tier: frontend}", "{}"));
        List<String> expected = List.of(
                "policies/failover.yaml:5:13: FailoverPolicy stateful selects application web, which FailoverPolicy second (policies/failover.yaml:21:13) "
                        + "selects too; at most one may move an application: narrow the selectors",
                "policies/failover.yaml:21:13: FailoverPolicy second selects application web, which FailoverPolicy stateful (policies/failover.yaml:5:13) "
                        + "selects too; at most one may move an application: narrow the selectors");
        assertEquals(expected, errors(s));
        assertEquals(List.of("web"), invalidApps(s));
        assertEquals(expected, s.apps().get("web").diagnostics().stream().map(Object::toString).toList(), "the app's own status says why");
        assertEquals(Map.of("api", "second", "cache", "second", "greeter", "second", "shop", "second"), s.failoverOf());
    }

    @Test
    void twoPoliciesOfTheSameNameAreErrorsAtBothAndHoldWhatEitherSelects() {
        DesiredState s = parse(POLICY + "---\n" + POLICY.replace("{tier: frontend}", "{tier: backend}"));
        assertEquals(List.of(
                "apps/api/app.yaml:1:1: Application api may be moved by FailoverPolicy stateful (policies/failover.yaml:19:18), whose name is "
                        + "also defined at policies/failover.yaml:3:18; nothing is applied until it is fixed",
                "apps/web/app.yaml:1:1: Application web may be moved by FailoverPolicy stateful (policies/failover.yaml:3:18), whose name is "
                        + "also defined at policies/failover.yaml:19:18; nothing is applied until it is fixed",
                "policies/failover.yaml:3:18: FailoverPolicy 'stateful' is also defined at policies/failover.yaml:19:18; a name may be defined once: rename or remove one (until then neither is used)",
                "policies/failover.yaml:19:18: FailoverPolicy 'stateful' is also defined at policies/failover.yaml:3:18; a name may be defined once: rename or remove one (until then neither is used)"),
                errors(s));
        assertEquals(List.of("api", "web"), invalidApps(s));
        assertEquals(Map.of(), s.failoverOf(), "neither is used");
    }

    @Test
    void labelKeys() {
        for (String ok : List.of("offset", "windlass.dev/last-offset", "a.b-c/C_d.e9", "x".repeat(63), "a/" + "b".repeat(63), "x".repeat(253) + "/y")) {
            assertNull(FailoverPolicyReader.labelKeyProblem(ok), ok);
        }
        for (String bad : List.of("", "/x", "x/", "a/b/c", "-x", "x_", "x y", "x".repeat(64), "x".repeat(254) + "/y", "a..b/x", "-a.b/x")) {
            assertTrue(FailoverPolicyReader.labelKeyProblem(bad) != null, bad);
        }
    }

    static final String SETTINGS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            metadata: {name: windlass}
            spec:
              failover:
                maxConcurrentFailovers: 5
                maxUnhealthyClusters: 2
            """;

    static DesiredState settings(String text) { return RepoParser.parse(RepoFiles.inline("windlass.yaml", text)); }

    @Test
    void settingsFailoverIsReadWithDefaults() {
        assertEquals(new FailoverSettings(5, new Amount(2, false)), settings(SETTINGS).settings().failover());
        assertEquals(new FailoverSettings(5, new Amount(30, true)), settings(SETTINGS.replace("maxUnhealthyClusters: 2", "maxUnhealthyClusters: 30%")).settings().failover());
        assertEquals(new FailoverSettings(5, new Amount(0, false)), settings(SETTINGS.replace("maxUnhealthyClusters: 2", "maxUnhealthyClusters: 0")).settings().failover(),
                "0: any unhealthy cluster stops cluster failover");
        assertEquals(new FailoverSettings(3, new Amount(50, true)), settings(SETTINGS.replace("    maxConcurrentFailovers: 5\n    maxUnhealthyClusters: 2\n", "    {}\n"))
                .settings().failover());
        assertEquals(FailoverSettings.DEFAULT, settings(SETTINGS.replace("  failover:\n    maxConcurrentFailovers: 5\n    maxUnhealthyClusters: 2\n", "  interval: 10s\n"))
                .settings().failover());
        assertEquals(FailoverSettings.DEFAULT, Settings.DEFAULT.failover());
    }

    static Stream<Arguments> settingsMistakes() {
        return Stream.of(
                Arguments.of(SETTINGS.replace("maxConcurrentFailovers: 5", "maxConcurrentFailovers: 0"),
                        "windlass.yaml:6:29: Settings.spec.failover.maxConcurrentFailovers must be a whole number of at least 1"),
                Arguments.of(SETTINGS.replace("maxConcurrentFailovers: 5", "maxConcurrentFailovers: \"5\""),
                        "windlass.yaml:6:29: Settings.spec.failover.maxConcurrentFailovers must be a whole number of at least 1"),
                Arguments.of(SETTINGS.replace("maxUnhealthyClusters: 2", "maxUnhealthyClusters: 120%"),
                        "windlass.yaml:7:27: Settings.spec.failover.maxUnhealthyClusters is '120%'; write a whole number of at least 0 or a percentage such as \"25%\""),
                Arguments.of(SETTINGS.replace("maxUnhealthyClusters: 2", "maxUnhealthyClusters: -1"),
                        "windlass.yaml:7:27: Settings.spec.failover.maxUnhealthyClusters is '-1'; write a whole number of at least 0 or a percentage such as \"25%\""),
                Arguments.of(SETTINGS.replace("maxUnhealthyClusters: 2", "maxUnhealthyClusters: 2\n    maxFailovers: 2"),
                        "windlass.yaml:8:5: unknown field 'maxFailovers' in Settings.spec.failover; known fields: maxConcurrentFailovers, maxUnhealthyClusters"),
                Arguments.of(SETTINGS.replace("  failover:\n    maxConcurrentFailovers: 5\n    maxUnhealthyClusters: 2\n", "  failover: 3\n"),
                        "windlass.yaml:5:13: Settings.spec.failover must be a mapping (key: value)"));
    }

    @ParameterizedTest
    @MethodSource("settingsMistakes")
    void settingsFailoverMistakesAreReportedAndKeepTheDefault(String text, String expected) {
        DesiredState s = settings(text);
        assertEquals(List.of(expected), errors(s));
        FailoverSettings f = s.settings().failover();
        assertTrue(f.maxConcurrentFailovers() == 5 || f.maxConcurrentFailovers() == 3, f.toString());
        assertTrue(f.maxUnhealthyClusters().equals(new Amount(2, false)) || f.maxUnhealthyClusters().equals(new Amount(50, true)), f.toString());
    }

    @Test
    void failoverPolicyIsAKnownKind() {
        DesiredState s = parse("apiVersion: windlass.dev/v1alpha1\nkind: FailoverPolicie\nmetadata: {name: x}\nspec: {}\n");
        assertEquals(List.of("policies/failover.yaml:1:1: unknown kind 'FailoverPolicie' for windlass.dev/v1alpha1; known kinds: Settings, Cluster, Application, "
                + "RolloutPolicy, FailoverPolicy, RemediationPolicy, Freeze, Provider, Alert"), errors(s));
        assertFalse(errors(parse(POLICY)).stream().anyMatch(e -> e.contains("not supported")));
    }

    @Test
    void aStateRuleThatWouldReadASecretIsAnErrorAtThePolicyAndHoldsTheApp() {
        List<String> files = new ArrayList<>();
        var examples = RepoFiles.examples();
        examples.files().keySet().forEach(p -> {
            files.add(p);
            files.add(new String(examples.read(p), StandardCharsets.UTF_8));
        });
        files.addAll(List.of(PATH, POLICY.replace("{ .status.offset }", "{ .data.password }"),
                "apps/web/manifests/secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\ndata: {password: c2VjcmV0}\n"));
        DesiredState s = RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
        assertEquals(List.of("policies/failover.yaml:1:1: FailoverPolicy stateful: state rule windlass.dev/last-offset ({ .data.password }) reads"
                + " Secret web/db of application web; what a rule reads is written to Git and onto other clusters, so it may not read a"
                + " Secret: preserve a value kept in a ConfigMap or annotation"), errors(s));
        assertEquals(List.of("web"), invalidApps(s));
        assertTrue(errors(s).stream().noneMatch(e -> e.contains("c2VjcmV0")), "the value itself is never quoted");
    }
}
