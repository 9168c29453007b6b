package dev.windlass.engine.status.v1;

import dev.windlass.engine.alerts.Delivery;
import dev.windlass.policy.alert.AlertEvent;
import dev.windlass.policy.alert.AlertKind;
import dev.windlass.policy.alert.Severity;
import java.time.Instant;
import java.util.List;

/**
 * One event for one provider in {@code status/alerts.yaml}: the event as it was derived, and how its delivery stands.
 * Words (kind, severity, state) are read back strictly: one this engine does not know is refused. {@code clusters} and
 * {@code rolloutSource} are written for rollout events only; a file from before they existed reads as none.
 */
public record AlertDeliveryV1(String id, String kind, String severity, String application, String cluster, String revision, String source,
                              Integer wave, String reason, String detail, Instant at, String provider, String planHash, String state,
                              Integer attempts, String error, Instant finishedAt, List<String> clusters, String rolloutSource) {

    public static AlertDeliveryV1 of(Delivery d) {
        AlertEvent e = d.event();
        return new AlertDeliveryV1(e.id(), Words.of(e.kind()), Words.of(e.severity()), blank(e.app()), blank(e.cluster()), blank(e.revision()),
                blank(e.source()), e.wave() == 0 ? null : e.wave(), blank(e.reason()), blank(e.detail()), e.at(), d.provider(), blank(d.planHash()),
                Words.of(d.state()), d.attempts() == 0 ? null : d.attempts(), blank(d.error()), d.finishedAt(),
                e.clusters().isEmpty() ? null : e.clusters(), blank(e.rolloutSource()));
    }

    public Delivery toDomain() {
        AlertKind k = Words.read(AlertKind.class, kind, "kind");
        Severity s = Words.read(Severity.class, severity, "severity");
        Delivery.State st = Words.read(Delivery.State.class, state, "state");
        if (id == null || k == null || s == null || st == null || provider == null || at == null) {
            throw new IllegalArgumentException("a delivery needs id, kind, severity, at, provider and state");
        }
        AlertEvent e = new AlertEvent(id, k, s, application, cluster, revision, source, wave == null ? 0 : wave, reason, detail, at,
                clusters, rolloutSource);
        return new Delivery(e, provider, planHash, st, attempts == null ? 0 : attempts, error, finishedAt);
    }

    private static String blank(String s) { return s == null || s.isEmpty() ? null : s; }
}
