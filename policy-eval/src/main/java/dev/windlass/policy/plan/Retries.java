package dev.windlass.policy.plan;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Retry;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes that failed are not sent again on every pass: the planner holds a target's writes while its {@link Retry}
 * says so, and the transition records a new one after each pass whose writes failed. Only the same writes to a cluster
 * serving the same API versions wait: a new commit, or a cluster that now serves the kind, is tried at once.
 */
final class Retries {
    private Retries() {}

    /** What a target's writes are, with what its cluster serves: equal digests, the same tries. */
    static String input(List<Action> actions, ClusterStatus cluster) {
        List<String> lines = new ArrayList<>();
        for (Action a : actions) {
            lines.add(a.operation() + " " + a.object() + " " + (a.desired() == null ? "" : a.desired().hash()));
        }
        lines.sort(null);
        lines.add("serves " + (cluster == null || cluster.apiVersions() == null ? "" : String.join(",", cluster.apiVersions())));
        return ContentHash.sha256(String.join("\n", lines)).substring(0, 16);
    }

    /** Why {@code actions} wait at {@code now}, or null when they go ahead. */
    static HoldReason holding(TargetStatus previous, List<Action> actions, ClusterStatus cluster, Instant now) {
        if (previous == null || previous.retry() == null || actions.isEmpty()) return null;
        Retry r = previous.retry();
        if (!r.holds(input(actions, cluster), now)) return null;
        return new HoldReason.BackingOff(r.failures(), r.kind(), r.next());
    }

    /**
     * The target's retry after this pass: a new one (or the next of the same) when a write failed, none once they all
     * went through, and the one it had when nothing was tried.
     */
    static Retry after(TargetStatus previous, List<ActionResult> results, ClusterStatus cluster, Instant now) {
        Retry before = previous == null ? null : previous.retry();
        if (results.isEmpty()) return before;
        if (results.stream().allMatch(ActionResult::succeeded)) return null;
        boolean lasting = results.stream().anyMatch(r -> !r.succeeded() && !r.transientFailure());
        return Retry.after(before, lasting ? Retry.Kind.Lasting : Retry.Kind.Transient, input(results.stream().map(ActionResult::action).toList(), cluster),
                now);
    }
}
