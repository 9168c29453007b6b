package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.PreservedValue;

/** A value a failover carries ({@code observedState}, {@code injectedState}, {@code preservedState}). */
public record PreservedValueV1(String label, String value, String object) {
    static PreservedValueV1 of(PreservedValue p) { return new PreservedValueV1(p.label(), p.value(), p.object()); }

    PreservedValue toDomain() { return new PreservedValue(label, value, object); }
}
