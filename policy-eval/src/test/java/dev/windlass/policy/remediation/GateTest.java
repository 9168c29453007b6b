package dev.windlass.policy.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import org.junit.jupiter.api.Test;

class GateTest {
    static RemediationPolicy.Gate atMost(int n) { return new RemediationPolicy.AtMost(new Amount(n, false)); }

    static RemediationPolicy.Gate percent(int p) { return new RemediationPolicy.AtMost(new Amount(p, true)); }

    static RemediationPolicy.Gate range(int min, int max) { return new RemediationPolicy.InRange(min, max); }

    @Test
    void withoutTriggerIfAnyNumberMayBeRemediated() {
        assertEquals(new Verdict(true, "5 of 5 targets unhealthy; triggerIf is not set, so any number may be remediated"),
                Gate.allows(RemediationPolicy.Gate.ALWAYS, 5, 5));
        assertTrue(Gate.allows(null, 1, 1).allowed(), "a gate left out is Always");
    }

    @Test
    void aCountIsInclusive() {
        assertEquals(new Verdict(true, "2 of 5 targets unhealthy; triggerIf allows at most 2"), Gate.allows(atMost(2), 5, 2));
        assertEquals(new Verdict(false, "3 of 5 targets unhealthy; triggerIf allows at most 2"), Gate.allows(atMost(2), 5, 3));
        assertTrue(Gate.allows(atMost(2), 5, 1).allowed());
        assertFalse(Gate.allows(atMost(0), 5, 1).allowed(), "0: nothing is remediated once anything is unhealthy");
        assertTrue(Gate.allows(atMost(10), 3, 3).allowed(), "a count above the total allows all of them");
    }

    @Test
    void percentagesRoundDown() {
        assertEquals(new Verdict(false, "3 of 5 targets unhealthy; triggerIf allows at most 40% of 5 = 2"), Gate.allows(percent(40), 5, 3));
        assertEquals(new Verdict(true, "2 of 5 targets unhealthy; triggerIf allows at most 40% of 5 = 2"), Gate.allows(percent(40), 5, 2));
        assertEquals(new Verdict(true, "1 of 3 targets unhealthy; triggerIf allows at most 40% of 3 = 1"), Gate.allows(percent(40), 3, 1));
        assertEquals(new Verdict(false, "2 of 3 targets unhealthy; triggerIf allows at most 40% of 3 = 1"), Gate.allows(percent(40), 3, 2));
        assertEquals(new Verdict(true, "1 of 3 targets unhealthy; triggerIf allows at most 50% of 3 = 1"), Gate.allows(percent(50), 3, 1));
        assertFalse(Gate.allows(percent(50), 3, 2).allowed(), "50% of 3 is 1, not 1.5 or 2");
        assertEquals(new Verdict(false, "1 of 2 targets unhealthy; triggerIf allows at most 40% of 2 = 0"), Gate.allows(percent(40), 2, 1),
                "a small group rounds down to 0: nothing is remediated");
        assertTrue(Gate.allows(percent(100), 4, 4).allowed());
        assertTrue(Gate.allows(percent(40), 0, 0).allowed(), "no targets, nothing unhealthy");
    }

    @Test
    void aRangeIncludesBothEnds() {
        assertEquals(new Verdict(false, "0 of 5 targets unhealthy; triggerIf allows [1-2]"), Gate.allows(range(1, 2), 5, 0));
        assertEquals(new Verdict(true, "1 of 5 targets unhealthy; triggerIf allows [1-2]"), Gate.allows(range(1, 2), 5, 1));
        assertEquals(new Verdict(true, "2 of 5 targets unhealthy; triggerIf allows [1-2]"), Gate.allows(range(1, 2), 5, 2));
        assertEquals(new Verdict(false, "3 of 5 targets unhealthy; triggerIf allows [1-2]"), Gate.allows(range(1, 2), 5, 3));
        assertTrue(Gate.allows(range(3, 3), 7, 3).allowed());
        assertFalse(Gate.allows(range(3, 3), 7, 2).allowed());
    }

    @Test
    void badInputIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Gate.allows(atMost(1), -1, 0));
        assertThrows(IllegalArgumentException.class, () -> Gate.allows(atMost(1), 3, -1));
        assertThrows(IllegalArgumentException.class, () -> range(3, 1));
        assertThrows(IllegalArgumentException.class, () -> range(-1, 1));
    }
}
