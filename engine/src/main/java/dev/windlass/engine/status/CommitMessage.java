package dev.windlass.engine.status;

import dev.windlass.policy.plan.Event;
import dev.windlass.policy.plan.EventLine;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A status commit message: one line that says what happened, every event in the body (each worded by {@link EventLine}), and
 * {@code Windlass-Source} / {@code Windlass-Event} / {@code Windlass-Replica} / {@code Windlass-Shards} trailers for tools
 * ({@link CommitWriter}). Every message has at least one
 * {@code Windlass-Event}: one without events records observed state, and says {@code Health}.
 */
public final class CommitMessage {
    static final int SUBJECT_MAX = 100;

    private CommitMessage() {}

    /**
     * @param touched the applications and clusters whose status files change, named when no event explains why
     * @param writer  the replica writing it and the shards its pass held: the {@code Windlass-Replica} and
     *                {@code Windlass-Shards} trailers
     */
    public static String of(List<Event> events, String source, List<String> touched, CommitWriter writer) {
        return of(events, source, touched, List.of(), writer);
    }

    /** @param notes further lines for the body (such as how a plan differs from the reviewed one) */
    public static String of(List<Event> events, String source, List<String> touched, List<String> notes, CommitWriter writer) {
        String subject = events.isEmpty()
                ? touched.isEmpty() ? "windlass: reconciled " + shortSha(source) : statusOf(touched)
                : "windlass: " + String.join("; ", events.stream().map(EventLine::of).toList());
        if (subject.length() > SUBJECT_MAX && !events.isEmpty()) {
            String first = "windlass: " + EventLine.of(events.get(0));
            String more = events.size() > 1 ? " (+" + (events.size() - 1) + " more)" : "";
            subject = first.length() + more.length() <= SUBJECT_MAX ? first + more
                    : first.substring(0, SUBJECT_MAX - more.length() - 1) + "…" + more;
        }
        StringBuilder b = new StringBuilder(subject).append("\n\n");
        for (Event e : events) b.append("- ").append(EventLine.of(e)).append('\n');
        if (!events.isEmpty()) b.append('\n');
        for (String n : notes) b.append(n).append('\n');
        if (!notes.isEmpty()) b.append('\n');
        b.append("Windlass-Source: ").append(source).append('\n');
        Set<String> types = new LinkedHashSet<>();
        for (Event e : events) types.add(e.type().name());
        // Every status commit names its kind, so a tool reading trailers misses none. A commit with no event records
        // what was observed (a cluster's nodes, a new cluster, the clocks that failover and remediation count from).
        if (types.isEmpty()) types.add(Event.Type.Health.name());
        for (String t : types) b.append("Windlass-Event: ").append(t).append('\n');
        // Who wrote it: an operator auditing a takeover reads which replica, holding which shards, recorded what.
        b.append(writer.trailers());
        return b.toString();
    }

    /** "status of a, b updated", naming as many as fit in a subject line and counting the rest. */
    private static String statusOf(List<String> touched) {
        String all = "windlass: status of " + String.join(", ", touched) + " updated";
        if (all.length() <= SUBJECT_MAX) return all;
        StringBuilder named = new StringBuilder();
        int n = 0;
        while (n < touched.size()) {
            String next = (n == 0 ? "" : ", ") + touched.get(n);
            String more = " (+" + (touched.size() - n - 1) + " more)";
            if (("windlass: status of " + named + next + more + " updated").length() > SUBJECT_MAX && n > 0) break;
            named.append(next);
            n++;
        }
        return "windlass: status of " + named + (n < touched.size() ? " (+" + (touched.size() - n) + " more)" : "") + " updated";
    }

    static String shortSha(String sha) { return sha == null ? "-" : sha.substring(0, Math.min(7, sha.length())); }
}
