package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.RolloutPolicy;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RolloutPolicyParseTest {
    static final String POLICY = """
            apiVersion: windlass.dev/v1alpha1
            kind: RolloutPolicy
            metadata: {name: prod-waves}
            spec:
              selector: {matchLabels: {tier: frontend}}
              type: Progressive
              groups:
                - {name: canary, clusterSelector: {matchLabels: {canary: "true"}}}
                - {name: eu, clusterSelector: {matchLabels: {region: eu, canary: "false"}}}
              unassignedClusters: LastGroup
              maxConcurrency: "50%"
              minSuccessTime: 60s
              progressDeadline: 10m
              maxFailures: 1
              onFailure: Rollback
            """;

    static DesiredState parse(String policy) {
        List<String> files = new ArrayList<>();
        var examples = RepoFiles.examples();
        examples.files().keySet().forEach(p -> {
            files.add(p);
            files.add(new String(examples.read(p)));
        });
        files.add("policies/rollout.yaml");
        files.add(policy);
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    @Test
    void aFullPolicyIsReadAndSelectsItsApplications() {
        DesiredState s = parse(POLICY);
        assertEquals(List.of(), errors(s));
        RolloutPolicy p = s.rolloutPolicy("web");
        assertEquals("prod-waves", p.name());
        assertEquals(RolloutPolicy.Type.Progressive, p.type());
        assertEquals(List.of("canary", "eu"), p.groups().stream().map(RolloutPolicy.Group::name).toList());
        assertEquals(new Amount(50, true), p.maxConcurrency());
        assertEquals(Duration.ofSeconds(60), p.minSuccessTime());
        assertEquals(Duration.ofMinutes(10), p.progressDeadline());
        assertEquals(RolloutPolicy.OnFailure.Rollback, p.onFailure());
        assertEquals(null, s.rolloutPolicy("api"), "api is not a frontend");
    }

    @Test
    void percentagesRoundDownAndConcurrencyIsAtLeastOne() {
        Amount quarter = new Amount(25, true);
        assertEquals(0, quarter.of(3));
        assertEquals(1, quarter.atLeastOne(3), "25% of 3 clusters is 0.75: round down to 0, but concurrency is at least 1");
        assertEquals(2, quarter.atLeastOne(10), "25% of 10 is 2.5: round down");
        assertEquals(5, new Amount(50, true).atLeastOne(10));
        assertEquals(3, new Amount(3, false).atLeastOne(10));
        assertEquals(0, new Amount(10, true).of(5), "maxFailures 10% of 5 is 0: one failure fails the rollout");
    }

    @Test
    void aClusterInTwoGroupsNamesBothAndHoldsTheApps() {
        DesiredState s = parse(POLICY.replace("{matchLabels: {region: eu, canary: \"false\"}}", "{matchLabels: {env: prod}}"));
        List<String> expected = List.of(
                "policies/rollout.yaml:8:39: group canary of RolloutPolicy prod-waves selects cluster eu-1, which group eu (policies/rollout.yaml:9:35) "
                        + "selects too; a cluster belongs to one group: narrow the selectors",
                "policies/rollout.yaml:9:35: group eu of RolloutPolicy prod-waves selects cluster eu-1, which group canary (policies/rollout.yaml:8:39) "
                        + "selects too; a cluster belongs to one group: narrow the selectors");
        assertEquals(expected, errors(s));
        assertFalse(s.apps().get("web").valid());
        assertEquals(expected, s.apps().get("web").diagnostics().stream().map(Object::toString).toList(), "the app's status says why, at the policy");
        assertTrue(s.apps().get("api").valid(), "an app the policy does not select goes on");
    }

    @Test
    void twoPoliciesForOneAppIsAnError() {
        DesiredState s = parse(POLICY + "---\n" + POLICY.replace("prod-waves", "second"));
        assertEquals(List.of(
                "policies/rollout.yaml:5:13: RolloutPolicy prod-waves selects application web, which RolloutPolicy second (policies/rollout.yaml:21:13) "
                        + "selects too; exactly one may roll out an application: narrow the selectors",
                "policies/rollout.yaml:21:13: RolloutPolicy second selects application web, which RolloutPolicy prod-waves (policies/rollout.yaml:5:13) "
                        + "selects too; exactly one may roll out an application: narrow the selectors"), errors(s));
        assertFalse(s.apps().get("web").valid());
        assertFalse(s.rolloutOf().containsKey("web"));
    }

    @Test
    void nothingSilent() {
        DesiredState s = parse(POLICY.replace("  unassignedClusters: LastGroup\n", "").replace("\"50%\"", "\"0%\"").replace("60s", "a minute"));
        List<String> errs = errors(s);
        assertTrue(errs.contains("policies/rollout.yaml:5:3: RolloutPolicy.spec.unassignedClusters is required with groups: say LastGroup or Exclude for clusters no group selects"), errs.toString());
        assertTrue(errs.contains("policies/rollout.yaml:10:19: RolloutPolicy.spec.maxConcurrency is '0%'; write a whole number of at least 1 or a percentage such as \"25%\" (more than 0%)"), errs.toString());
        assertTrue(errs.contains("policies/rollout.yaml:11:19: RolloutPolicy.spec.minSuccessTime 'a minute' is not a duration; write e.g. 60s, 10m or 1h30m"), errs.toString());
        assertFalse(s.apps().get("web").valid(), "a broken policy holds the apps it selects");
        assertTrue(s.apps().get("web").diagnostics().stream().anyMatch(d -> d.message().contains("which has errors; nothing is rolled out until it is fixed")));
        assertTrue(s.apps().get("api").valid());
    }
}
