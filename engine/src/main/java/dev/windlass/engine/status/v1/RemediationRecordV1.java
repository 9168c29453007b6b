package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.RemediationRecord;
import java.time.Instant;

/** A target a remediation policy watches ({@code remediation:} of a cluster file). */
public record RemediationRecordV1(String policy, String target, String state, String reason, Instant firstSeen, Instant unhealthySince,
                                  Instant healthySince, boolean everHealthy, Instant markedAt, Instant cordonedAt, int attempts,
                                  Instant lastAttemptAt, String message) {
    static RemediationRecordV1 of(RemediationRecord r) {
        return new RemediationRecordV1(r.policy(), r.target(), Words.of(r.state()), r.reason(), r.firstSeen(), r.unhealthySince(),
                r.healthySince(), r.everHealthy(), r.markedAt(), r.cordonedAt(), r.attempts(), r.lastAttemptAt(), r.message());
    }

    RemediationRecord toDomain() {
        return new RemediationRecord(policy, target, Words.read(RemediationRecord.State.class, state, "remediation[].state"), reason, firstSeen,
                unhealthySince, healthySince, everHealthy, markedAt, cordonedAt, attempts, lastAttemptAt, message);
    }
}
