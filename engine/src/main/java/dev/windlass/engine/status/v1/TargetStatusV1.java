package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.util.List;

/** An application on one cluster ({@code targets:} of an application file). */
public record TargetStatusV1(String cluster, String revision, String sync, String health, String message, List<String> drift,
                             List<InventoryEntryV1> inventory, Instant unhealthySince, List<PreservedValueV1> observedState,
                             List<PreservedValueV1> injectedState, String variant, String rendered, RetryV1 retry) {
    static TargetStatusV1 of(TargetStatus t) {
        return new TargetStatusV1(t.cluster(), t.revision(), Words.of(t.sync()), Words.of(t.health()), t.message(), t.drift(),
                Words.map(t.inventory(), InventoryEntryV1::of), t.unhealthySince(), Words.map(t.observedState(), PreservedValueV1::of),
                Words.map(t.injectedState(), PreservedValueV1::of), t.variant(), t.rendered(), RetryV1.of(t.retry()));
    }

    TargetStatus toDomain() {
        return new TargetStatus(cluster, revision, Words.read(Sync.class, sync, "targets[].sync"),
                Words.read(Health.class, health, "targets[].health"), message, drift, Words.map(inventory, InventoryEntryV1::toDomain),
                unhealthySince, Words.map(observedState, PreservedValueV1::toDomain), Words.map(injectedState, PreservedValueV1::toDomain),
                variant, rendered, retry == null ? null : retry.toDomain());
    }
}
