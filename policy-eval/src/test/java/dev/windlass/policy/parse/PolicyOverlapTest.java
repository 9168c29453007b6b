package dev.windlass.policy.parse;

import static dev.windlass.policy.parse.SameNameTest.errors;
import static dev.windlass.policy.parse.SameNameTest.invalidApps;
import static dev.windlass.policy.parse.SameNameTest.object;
import static dev.windlass.policy.parse.SameNameTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.DesiredState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Policies in two files that select one application: an error at each policy's selector, naming the other file; the app is held. */
class PolicyOverlapTest {

    @Test
    void twoRolloutPoliciesInTwoFilesSelectingOneAppAreErrorsAtBothSelectors() {
        DesiredState s = parse(
                "policies/a.yaml", object("RolloutPolicy", "fast", "  selector: {}\n"),
                "policies/b.yaml", object("RolloutPolicy", "slow", "  type: All\n  selector:\n    matchLabels: {tier: frontend}\n"));
        List<String> expected = List.of(
                "policies/a.yaml:6:13: RolloutPolicy fast selects application web, which RolloutPolicy slow (policies/b.yaml:8:5) selects too; "
                        + "exactly one may roll out an application: narrow the selectors",
                "policies/b.yaml:8:5: RolloutPolicy slow selects application web, which RolloutPolicy fast (policies/a.yaml:6:13) selects too; "
                        + "exactly one may roll out an application: narrow the selectors");
        assertEquals(expected, errors(s));
        assertEquals(List.of("web"), invalidApps(s), "held, as before; the others go on");
        assertEquals(expected, s.apps().get("web").diagnostics().stream().map(Object::toString).toList(), "the app's status points at the policies");
    }

    @Test
    void twoFailoverPoliciesInTwoFilesNameEveryAppTheyBothSelect() {
        DesiredState s = parse(
                "policies/a.yaml", object("FailoverPolicy", "all", "  selector: {}\n  application: {}\n"),
                "policies/b.yaml", object("FailoverPolicy", "tiers", "  selector: {matchExpressions: [{key: tier, operator: In, values: [data, frontend]}]}\n"
                        + "  cluster: {}\n"));
        List<String> expected = List.of(
                "policies/a.yaml:6:13: FailoverPolicy all selects applications cache, web, which FailoverPolicy tiers (policies/b.yaml:6:13) selects too; "
                        + "at most one may move an application: narrow the selectors",
                "policies/b.yaml:6:13: FailoverPolicy tiers selects applications cache, web, which FailoverPolicy all (policies/a.yaml:6:13) selects too; "
                        + "at most one may move an application: narrow the selectors");
        assertEquals(expected, errors(s));
        assertEquals(List.of("cache", "web"), invalidApps(s));
        assertEquals(Map.of("api", "all", "greeter", "all", "shop", "all"), s.failoverOf(), "an app only one selects keeps it");
    }
}
