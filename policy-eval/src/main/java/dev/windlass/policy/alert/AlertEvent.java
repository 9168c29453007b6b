package dev.windlass.policy.alert;

import java.time.Instant;
import java.util.List;

/**
 * One change a pass recorded, as data a filter reads. Strings are "" when they do not apply, never null.
 *
 * @param id       stable and unique: the same change derived again gives the same id (a receiver may drop one it has)
 * @param revision the application's revision the event is about
 * @param source   the config commit the pass read: the commit a commit status goes on
 * @param wave     the wave, for wave events; 0 otherwise
 * @param reason   a short machine word for why (a failover's reason, a condition, a rollout's result); "" when none
 * @param detail   for people: the first error with its path:line:col, a rollout's message; at most {@link #DETAIL_LIMIT} characters
 * @param clusters the clusters a rollout event is about, as data: a wave's clusters (WaveStarted, WaveCompleted), the
 *                 failed ones (WaveFailed), the ones a rollback set back (RolledBack); empty for other kinds
 * @param rolloutSource for rollout events, the config commit the rollout's revision was taken from (the same for every
 *                 event of that rollout, whichever commit the pass read); "" otherwise
 */
public record AlertEvent(String id, AlertKind kind, Severity severity, String app, String cluster, String revision, String source,
                         int wave, String reason, String detail, Instant at, List<String> clusters, String rolloutSource) {

    /** An event about no set of clusters and no rollout's commit. */
    public AlertEvent(String id, AlertKind kind, Severity severity, String app, String cluster, String revision, String source,
                      int wave, String reason, String detail, Instant at) {
        this(id, kind, severity, app, cluster, revision, source, wave, reason, detail, at, List.of(), "");
    }

    public static final int DETAIL_LIMIT = 300;

    public AlertEvent {
        app = app == null ? "" : app;
        cluster = cluster == null ? "" : cluster;
        revision = revision == null ? "" : revision;
        source = source == null ? "" : source;
        reason = reason == null ? "" : reason;
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
        rolloutSource = rolloutSource == null ? "" : rolloutSource;
        detail = detail == null ? "" : detail.length() > DETAIL_LIMIT ? detail.substring(0, DETAIL_LIMIT - 1) + "…" : detail;
    }
}
