package dev.windlass.dashboard;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.state.EngineState;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the engine knew at the end of one pass, published for the dashboard: immutable, read only.
 *
 * @param at      the engine's clock when the pass ended
 * @param branch  the config branch
 * @param source  the config commit the pass reconciled
 * @param state   what the status branch records (apps × clusters, rollouts, failovers, remediation)
 * @param desired what that commit asks for (labels, placement, policies, freezes, validation errors)
 * @param plan    the pass's plan: held actions and their reasons, and main's plan as the pull request comment shows it
 * @param reviews each reviewed branch's plan, the Markdown of its pull request comment, by ref
 * @param writer  who ran the pass and signs its status commits, as their trailers say: {@code host_1a2b3c4d (shards 0,2)}
 *                or {@code host_1a2b3c4d (unsharded)}; "" when not known
 * @param verification the signature check of the config branch's tip; null when none is in force
 */
public record FleetView(Instant at, String branch, String source, EngineState state, DesiredState desired, Plan plan,
                        SortedMap<String, String> reviews, String writer, dev.windlass.policy.source.Verification verification) {

    public FleetView(Instant at, String branch, String source, EngineState state, DesiredState desired, Plan plan,
                     SortedMap<String, String> reviews, String writer) {
        this(at, branch, source, state, desired, plan, reviews, writer, null);
    }

    public FleetView {
        reviews = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(reviews == null ? java.util.Map.of() : reviews));
        writer = writer == null ? "" : writer;
    }

    /** A view whose writer is not known. */
    public FleetView(Instant at, String branch, String source, EngineState state, DesiredState desired, Plan plan,
                     SortedMap<String, String> reviews) {
        this(at, branch, source, state, desired, plan, reviews, "");
    }

    /** The same view with the reviews read after the pass's reviews ran. */
    public FleetView withReviews(SortedMap<String, String> replaced) {
        return new FleetView(at, branch, source, state, desired, plan, replaced, writer, verification);
    }
}
