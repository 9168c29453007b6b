package dev.windlass.policy.plan;

import dev.windlass.policy.state.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The {@code Suspended} condition of an application or cluster: since when, by whom (the author of the
 * commit that suspended it) and why; and the one status line for entering and for leaving suspension.
 */
final class SuspensionRecord {
    private SuspensionRecord() {}

    /** @param suspendedOn cluster → what suspends the target there (empty: not suspended) */
    static Condition condition(String subject, Map<String, String> unsorted, Condition previous, String author, Instant now,
                               List<Event> events) {
        Map<String, String> suspendedOn = new TreeMap<>(unsorted);
        boolean was = previous != null && "True".equals(previous.status());
        boolean is = !suspendedOn.isEmpty();
        if (!is && !was) return previous;
        // A cluster's own suspension needs no "on <cluster>": the reason says it all.
        String message = suspendedOn.keySet().equals(java.util.Set.of(subject.replace("cluster ", "")))
                && subject.startsWith("cluster ") ? suspendedOn.values().iterator().next() : String.join("; ", group(suspendedOn));
        if (is && (!was || !Objects.equals(previous.message(), message))) {
            events.add(new Event(Event.Type.Suspension, subject + " suspended: " + message));
        } else if (!is) {
            events.add(new Event(Event.Type.Suspension, subject + " resumed"));
        }
        Condition next = is
                ? new Condition("Suspended", "True", reason(suspendedOn), message, now.toString(), author.isEmpty() ? null : author)
                : new Condition("Suspended", "False", "Resumed", "", now.toString(), author.isEmpty() ? null : author);
        return next.since(previous);
    }

    /** "eu-1, eu-2: Freeze/black-friday until ..." — clusters held by the same thing on one line. */
    private static List<String> group(Map<String, String> suspendedOn) {
        Map<String, List<String>> byReason = new TreeMap<>();
        suspendedOn.forEach((cluster, why) -> byReason.computeIfAbsent(why, w -> new ArrayList<>()).add(cluster));
        List<String> out = new ArrayList<>();
        byReason.forEach((why, clusters) -> out.add("on " + String.join(", ", clusters) + " by " + why));
        return out;
    }

    private static String reason(Map<String, String> suspendedOn) {
        String first = suspendedOn.values().iterator().next();
        if (first.startsWith("Application/")) return "ApplicationSuspended";
        if (first.startsWith("Cluster/")) return "ClusterSuspended";
        return "Frozen";
    }
}
