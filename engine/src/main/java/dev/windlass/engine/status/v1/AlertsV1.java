package dev.windlass.engine.status.v1;

import java.util.List;

/**
 * {@code status/alerts.yaml}: every delivery still pending and the newest finished ones, oldest first. Written in the
 * same commit as the changes its events tell of, so an event is recorded exactly when its change is.
 */
public record AlertsV1(List<AlertDeliveryV1> deliveries) {
    public AlertsV1 {
        deliveries = deliveries == null ? List.of() : List.copyOf(deliveries);
    }
}
