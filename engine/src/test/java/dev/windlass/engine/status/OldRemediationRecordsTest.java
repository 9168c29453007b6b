package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.policy.state.RemediationRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A status branch written by the engine before remediation records kept since-times only: reasons with a duration in
 * them, no cordonedAt, and a mark that was not yet counted as an attempt. It is read as it was written, the mark counted.
 */
class OldRemediationRecordsTest {
    static final String OLD_CLUSTER = """
            name: eu-1
            definedIn: clusters/eu-1.yaml
            reachability: Reachable
            message: ""
            applyStrategy: ClientSide
            nodes: 4
            readyNodes: 2
            conditions: []
            health: Healthy
            healthySince: 2026-11-21T08:00:00Z
            remediation:
              - policy: control-plane
                target: Node eu-1-cp-2
                state: Marked
                reason: Ready=False for 5m
                firstSeen: 2026-11-21T08:00:00Z
                unhealthySince: 2026-11-21T09:55:00Z
                everHealthy: true
                markedAt: 2026-11-21T10:00:00Z
                attempts: 0
                message: marked; the owner remediates
              - policy: workers
                target: Node eu-1-worker-1
                state: Remediating
                reason: Ready=Unknown for 2m10s
                firstSeen: 2026-11-21T08:00:00Z
                unhealthySince: 2026-11-21T09:57:50Z
                everHealthy: true
                markedAt: 2026-11-21T09:59:00Z
                attempts: 1
                lastAttemptAt: 2026-11-21T10:00:00Z
                message: CordonAndDrain attempt 1 of 3
            """;

    @Test
    void recordsWrittenByThePreviousEngineAreRead() throws Exception {
        var state = StatusFiles.read(Map.of(StatusFiles.CLUSTERS + "eu-1.yaml", OLD_CLUSTER.getBytes(StandardCharsets.UTF_8)));
        List<RemediationRecord> records = state.clusters().get("eu-1").remediationRecords();
        assertEquals(2, records.size());
        RemediationRecord marked = records.get(0);
        assertEquals(RemediationRecord.State.Marked, marked.state());
        assertEquals("Ready=False for 5m", marked.reason(), "read as written; the next pass records the condition alone");
        assertEquals(java.time.Instant.parse("2026-11-21T09:55:00Z"), marked.unhealthySince());
        assertEquals(java.time.Instant.parse("2026-11-21T10:00:00Z"), marked.markedAt());
        assertEquals(1, marked.attempts(), "its mark was not counted then; it is an attempt now");
        assertNull(marked.cordonedAt());
        RemediationRecord drained = records.get(1);
        assertEquals(RemediationRecord.State.Remediating, drained.state());
        assertEquals(1, drained.attempts());
        assertEquals(java.time.Instant.parse("2026-11-21T10:00:00Z"), drained.lastAttemptAt());
        assertNull(drained.cordonedAt(), "not recorded then: Windlass does not uncordon what it cannot tell it cordoned");

        String again = new String(StatusFiles.render(state).get(StatusFiles.CLUSTERS + "eu-1.yaml"), StandardCharsets.UTF_8);
        assertFalse(again.contains("cordonedAt"), "absent while null:\n" + again);
        assertEquals(state, StatusFiles.read(StatusFiles.render(state)), "and written back the same way");
    }
}
