package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Settings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A duration too long to hold (past a long, or past what Windlass reads) is an error at its value, as any bad value
 * is, and the field keeps its default; reading the repo goes on.
 */
class DurationRangeTest {

    @Test void anIntervalPastALongIsAnErrorAtTheValueAndKeepsTheDefault() {
        DesiredState s = ReviewSettingsParseTest.parse("interval: 99999999999999999999s\n");
        assertEquals(List.of("windlass.yaml:5:13: Settings.spec.interval '99999999999999999999s' is out of range: Windlass reads durations "
                + "of at most 3650d; write e.g. 30s, 5m or 1h"), ReviewSettingsParseTest.errors(s));
        assertEquals(Settings.DEFAULT.interval(), s.settings().interval());
    }

    @Test void anIntervalPastWhatADurationHoldsIsOutOfRangeToo() {
        // 9223372036854775807 fits a long, but not as hours.
        DesiredState s = ReviewSettingsParseTest.parse("interval: 9223372036854775807h\n");
        assertEquals(List.of("windlass.yaml:5:13: Settings.spec.interval '9223372036854775807h' is out of range: Windlass reads durations "
                + "of at most 3650d; write e.g. 30s, 5m or 1h"), ReviewSettingsParseTest.errors(s));
        assertEquals(Settings.DEFAULT.interval(), s.settings().interval());
    }

    @Test void theLongestDurationIsReadAndOneMoreIsNot() {
        assertEquals(Duration.ofDays(3650), ReviewSettingsParseTest.parse("interval: 3650d\n").settings().interval());
        assertEquals(List.of("windlass.yaml:5:13: Settings.spec.interval '3650d1s' is out of range: Windlass reads durations "
                + "of at most 3650d; write e.g. 30s, 5m or 1h"), ReviewSettingsParseTest.errors(ReviewSettingsParseTest.parse("interval: 3650d1s\n")));
    }

    @Test void anOverflowFollowedByJunkIsNotADuration() {
        assertEquals(List.of("windlass.yaml:5:13: Settings.spec.interval '99999999999999999999sx' is not a duration; write e.g. 30s, 5m or 1h"),
                ReviewSettingsParseTest.errors(ReviewSettingsParseTest.parse("interval: 99999999999999999999sx\n")));
    }

    @Test void aFreezeDurationPastALongIsAnErrorAtTheValue() {
        DesiredState s = FreezeParseTest.parse("freezes/f.yaml", FreezeParseTest.FREEZE.replace("duration: 60h", "duration: 99999999999999999999h"));
        // A Freeze with an error holds what it may cover, as documented.
        assertEquals(List.of(
                "apps/cache/app.yaml:1:1: Application cache may be frozen by Freeze black-friday (freezes/f.yaml:1:1), which has errors; nothing is applied until it is fixed",
                "apps/web/app.yaml:1:1: Application web may be frozen by Freeze black-friday (freezes/f.yaml:1:1), which has errors; nothing is applied until it is fixed",
                "freezes/f.yaml:10:13: Freeze.spec.duration '99999999999999999999h' is out of range: Windlass reads durations "
                + "of at most 3650d; write e.g. 90m, 60h or 1h30m"), FreezeParseTest.errors(s));
    }

    @Test void aRolloutDurationPastALongIsAnErrorAtTheValue() {
        DesiredState s = RolloutPolicyParseTest.parse(RolloutPolicyParseTest.POLICY.replace("minSuccessTime: 60s", "minSuccessTime: 99999999999999999999s"));
        // A RolloutPolicy with an error holds what it selects, and says so, as a Freeze does.
        assertEquals(List.of(
                "apps/web/app.yaml:1:1: Application web may be rolled out by RolloutPolicy prod-waves (policies/rollout.yaml:1:1), which has errors; "
                        + "nothing is rolled out until it is fixed",
                "policies/rollout.yaml:12:19: RolloutPolicy.spec.minSuccessTime '99999999999999999999s' is out of range: Windlass reads "
                + "durations of at most 3650d; write e.g. 60s, 10m or 1h30m"), RolloutPolicyParseTest.errors(s));
        assertNull(s.rolloutPolicies().get("prod-waves"));
    }
}
