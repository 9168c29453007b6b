package dev.windlass.engine.status;

import dev.windlass.git.LoggedCommit;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.PreservedValue;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Objects;
import java.util.List;

/**
 * {@code windlass history APP}: the application's completed failovers, failed attempts, evictions under way and
 * copies left running, as its status file records them.
 */
public final class HistoryTable {
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private HistoryTable() {}

    /**
     * As {@link #render(AppStatus)}, then the status commits that recorded the application's failovers, each with who wrote
     * it ({@link CommitWriter}: the replica and its shards, or {@value CommitWriter#UNKNOWN}).
     *
     * @param commits the status commits that changed the application's file, newest first; those with a
     *                {@code Windlass-Event: Failover} are listed
     */
    public static String render(AppStatus app, String statusBranch, List<LoggedCommit> commits) {
        StringBuilder b = new StringBuilder(render(app));
        List<LoggedCommit> failovers = new ArrayList<>(commits.stream().filter(c -> c.trailer("Windlass-Event").contains("Failover")).toList());
        if (failovers.isEmpty()) return b.toString();
        java.util.Collections.reverse(failovers);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"COMMIT", "TIME (UTC)", "WRITTEN BY", "SUBJECT"});
        for (LoggedCommit c : failovers) {
            rows.add(new String[] {c.id().substring(0, 7), time(c.time()), CommitWriter.describe(c), c.subject().replaceAll("\\p{Cntrl}", "?")});
        }
        b.append("\nFailover commits on ").append(statusBranch).append(" (newest last)\n").append(StatusTable.table(rows));
        return b.toString();
    }

    public static String render(AppStatus app) {
        FailoverMemory memory = app.failoverMemory();
        StringBuilder b = new StringBuilder();
        b.append("Failover history of ").append(app.name()).append(" (newest last, limit kept by the policy)\n");
        if (memory.history().isEmpty()) {
            b.append("no completed failovers\n");
        } else {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"START (UTC)", "TOOK", "REASON", "FROM → TO", "PRESERVED"});
            for (FailoverRecord r : memory.history()) {
                rows.add(new String[] {time(r.startTime()), took(r.startTime(), r.endTime()), text(Objects.toString(r.reason(), null)), move(r), preserved(r.preservedState())});
            }
            b.append(StatusTable.table(rows));
        }
        if (!memory.failedAttempts().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"START (UTC)", "GAVE UP AFTER", "REASON", "FROM → TO", "FAILURE"});
            for (FailoverRecord r : memory.failedAttempts()) {
                rows.add(new String[] {time(r.startTime()), took(r.startTime(), r.endTime()), text(Objects.toString(r.reason(), null)), move(r), text(r.failure())});
            }
            b.append("\nFailed attempts\n").append(StatusTable.table(rows));
        }
        if (!memory.evictions().isEmpty()) {
            b.append("\nIn progress\n");
            for (EvictionTask t : memory.evictions()) b.append("  ").append(eviction(t)).append('\n');
        }
        if (!memory.orphanedOn().isEmpty()) {
            b.append("\nCopies left running (purgeMode Never): ").append(String.join(", ", memory.orphanedOn())).append('\n');
        }
        var blocked = app.condition("FailoverBlocked");
        if (blocked != null && blocked.holds()) {
            b.append("\nBlocked since ").append(time(blocked.lastTransitionTime())).append(" (").append(blocked.reason()).append("): ")
                    .append(blocked.message()).append('\n');
        }
        return b.toString();
    }

    private static String eviction(EvictionTask t) {
        if (t.inFlight()) {
            String to = t.replacements().isEmpty() ? "" : " to " + String.join(", ", t.replacements());
            StringBuilder line = new StringBuilder(t.fromCluster() + " failing over" + to + " since " + time(t.createdAt())
                    + " (" + text(Objects.toString(t.reason(), null)) + "); old copy: " + t.purge());
            if (!t.preservedState().isEmpty()) line.append("; carrying ").append(preserved(t.preservedState()));
            for (String note : t.notes()) line.append("; note: ").append(note);
            return line.toString();
        }
        String outcome = t.failedAt() != null ? " (failover given up at " + time(t.failedAt()) + ")" : "";
        return t.fromCluster() + " excluded until healthy for the toleration" + outcome + "; old copy: " + t.purge();
    }

    private static String move(FailoverRecord r) {
        return list(r.clustersBeforeFailover()) + " → " + list(r.clustersAfterFailover());
    }

    private static String list(List<String> clusters) {
        return clusters.isEmpty() ? "-" : String.join(", ", clusters);
    }

    private static String preserved(List<PreservedValue> values) {
        if (values.isEmpty()) return "-";
        return String.join(", ", values.stream().map(v -> v.label() + "=" + v.value()).toList());
    }

    private static String text(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    /** An instant from the status file in UTC to the second; as written when it is not one. */
    static String time(Instant at) { return at == null ? "-" : UTC.format(at); }

    static String time(String instant) {
        if (instant == null || instant.isEmpty()) return "-";
        try {
            return UTC.format(Instant.parse(instant));
        } catch (DateTimeParseException e) {
            return instant;
        }
    }

    /** {@code 42s}, {@code 3m10s}, {@code 2m}, {@code 2h05m}, {@code 1d03h}; {@code -} when either end is unknown. */
    static String took(Instant start, Instant end) {
        if (start == null || end == null) return "-";
        Duration d = Duration.between(start, end);
        if (d.isNegative()) return "-";
        long s = d.getSeconds();
        if (s < 60) return s + "s";
        if (s < 3600) return (s / 60) + "m" + rest(s % 60, "s");
        if (s < 86400) return (s / 3600) + "h" + rest(s % 3600 / 60, "m");
        return (s / 86400) + "d" + rest(s % 86400 / 3600, "h");
    }

    /** As {@link #took(Instant, Instant)}, for times recorded as text; {@code -} when either is not one. */
    static String took(String start, String end) {
        try {
            return start == null || end == null ? "-" : took(Instant.parse(start), Instant.parse(end));
        } catch (DateTimeParseException e) {
            return "-";
        }
    }

    /** The smaller unit, two digits, or nothing when it is zero: {@code 3m05s}, {@code 3m}. */
    private static String rest(long n, String unit) {
        return n == 0 ? "" : (n < 10 ? "0" + n : Long.toString(n)) + unit;
    }
}
