package dev.windlass.policy.alert;

import java.time.Instant;

/**
 * One change a pass recorded, as data a filter reads. Strings are "" when they do not apply, never null.
 *
 * @param id       stable and unique: the same change derived again gives the same id (a receiver may drop one it has)
 * @param revision the application's revision the event is about
 * @param source   the config commit the pass read: the commit a commit status goes on
 * @param wave     the wave, for wave events; 0 otherwise
 * @param reason   a short machine word for why (a failover's reason, a condition, a rollout's result); "" when none
 * @param detail   for people: the first error with its path:line:col, a rollout's message; at most {@link #DETAIL_LIMIT} characters
 */
public record AlertEvent(String id, AlertKind kind, Severity severity, String app, String cluster, String revision, String source,
                         int wave, String reason, String detail, Instant at) {
    public static final int DETAIL_LIMIT = 300;

    public AlertEvent {
        app = app == null ? "" : app;
        cluster = cluster == null ? "" : cluster;
        revision = revision == null ? "" : revision;
        source = source == null ? "" : source;
        reason = reason == null ? "" : reason;
        detail = detail == null ? "" : detail.length() > DETAIL_LIMIT ? detail.substring(0, DETAIL_LIMIT - 1) + "…" : detail;
    }
}
