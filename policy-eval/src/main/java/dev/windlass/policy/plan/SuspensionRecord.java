package dev.windlass.policy.plan;

import dev.windlass.policy.state.Condition;
import dev.windlass.policy.suspension.Hold;
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

    /**
     * @param name        the application's name, or the cluster's
     * @param ofCluster   the condition of a cluster, suspended by itself alone, rather than of an application
     * @param unsorted    cluster → what suspends the target there (empty: not suspended)
     */
    static Condition condition(String name, boolean ofCluster, Map<String, Hold> unsorted, Condition previous, String author, Instant now,
                               List<Event> events) {
        Map<String, Hold> suspendedOn = new TreeMap<>(unsorted);
        boolean was = previous != null && previous.holds();
        boolean is = !suspendedOn.isEmpty();
        if (!is && !was) return previous;
        // A cluster's own suspension needs no "on <cluster>": the reason says it all.
        String message = ofCluster && is ? suspendedOn.values().iterator().next().text() : String.join("; ", group(suspendedOn));
        if (is && (!was || !Objects.equals(previous.message(), message))) {
            events.add(ofCluster ? new Event.ClusterSuspended(name, message) : new Event.AppSuspended(name, message));
        } else if (!is) {
            events.add(ofCluster ? new Event.ClusterResumed(name) : new Event.AppResumed(name));
        }
        Condition next = is
                ? new Condition("Suspended", Condition.Status.True, reason(suspendedOn), message, now, author.isEmpty() ? null : author)
                : new Condition("Suspended", Condition.Status.False, "Resumed", "", now, author.isEmpty() ? null : author);
        return next.since(previous);
    }

    /** "eu-1, eu-2: Freeze/black-friday until ..." — clusters held by the same thing on one line. */
    private static List<String> group(Map<String, Hold> suspendedOn) {
        Map<String, List<String>> byReason = new TreeMap<>();
        suspendedOn.forEach((cluster, why) -> byReason.computeIfAbsent(why.text(), w -> new ArrayList<>()).add(cluster));
        List<String> out = new ArrayList<>();
        byReason.forEach((why, clusters) -> out.add("on " + String.join(", ", clusters) + " by " + why));
        return out;
    }

    /** The reason of the first cluster's hold (in cluster order). */
    private static String reason(Map<String, Hold> suspendedOn) {
        return suspendedOn.values().iterator().next().reason().name();
    }
}
