package dev.windlass.policy.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.state.RemediationRecord;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Durations are shown to people, counted from the since-times records keep. */
class DurationsTest {
    @Test
    void inWords() {
        assertEquals("45s", Durations.seconds(45));
        assertEquals("1m", Durations.seconds(60));
        assertEquals("4m5s", Durations.seconds(245));
        assertEquals("1h", Durations.seconds(3600));
        assertEquals("1h30m", Durations.seconds(5400));
        assertEquals("2h5s", Durations.seconds(7205));
    }

    @Test
    void howLongAConditionHeldIsCountedFromItsSinceTime() {
        RemediationRecord r = new RemediationRecord("cp", "Node n1", RemediationRecord.State.Marked, "Ready=Unknown", Instant.parse("2026-11-21T09:00:00Z"),
                Instant.parse("2026-11-21T09:58:30Z"), null, true, Instant.parse("2026-11-21T09:59:30Z"), 1, Instant.parse("2026-11-21T09:59:30Z"), "");
        assertEquals("Ready=Unknown for 1m30s", Durations.held(r, Instant.parse("2026-11-21T10:00:00Z")));
        RemediationRecord healthy = new RemediationRecord("cp", "Node n1", RemediationRecord.State.Healthy, "", Instant.parse("2026-11-21T09:00:00Z"), null,
                Instant.parse("2026-11-21T09:59:50Z"), true, null, 1, Instant.parse("2026-11-21T09:59:30Z"), "");
        assertEquals("", Durations.held(healthy, Instant.parse("2026-11-21T10:00:00Z")), "healthy: nothing held");
    }
}
