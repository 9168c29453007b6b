package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.Condition;
import java.time.Instant;

/** A condition ({@code conditions:} of an application or a cluster file). */
public record ConditionV1(String type, String status, String reason, String message, Instant lastTransitionTime, String by) {
    static ConditionV1 of(Condition c) {
        return new ConditionV1(c.type(), Words.of(c.status()), c.reason(), c.message(), c.lastTransitionTime(), c.by());
    }

    Condition toDomain() {
        return new Condition(type, Words.read(Condition.Status.class, status, "conditions[].status"), reason, message, lastTransitionTime, by);
    }
}
