package dev.windlass.policy.suspension;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.state.EngineState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What holds an application on a cluster at a given time: the application suspended, the cluster
 * suspended, or an open Freeze window covering both. Nothing held is applied, pruned, corrected or
 * rolled out; observation goes on.
 */
public final class Suspensions {
    private final DesiredState desired;
    private final Instant now;
    private final List<String> unreadablePolicies;

    private Suspensions(DesiredState desired, List<String> unreadablePolicies, Instant now) {
        this.desired = desired;
        this.unreadablePolicies = unreadablePolicies;
        this.now = now;
    }

    public static Suspensions at(DesiredState desired, Instant now) { return at(desired, EngineState.EMPTY, now); }

    /** With the engine's memory: a file that held a Freeze or RolloutPolicy and cannot be read now holds everything. */
    public static Suspensions at(DesiredState desired, EngineState state, Instant now) {
        List<String> unreadable = state.policyFiles().stream().filter(desired.brokenFiles()::contains).sorted().toList();
        return new Suspensions(desired, unreadable, now);
    }

    /** What holds {@code app} (a name and its labels; an app deleted from Git has none) on {@code cluster}, or null. */
    public Hold hold(String app, Map<String, String> appLabels, String cluster) {
        if (!unreadablePolicies.isEmpty()) {
            return new Hold(Hold.Reason.Frozen, String.join(", ", unreadablePolicies) + " held a Freeze or RolloutPolicy and cannot be read; nothing is applied until it is fixed");
        }
        Application a = desired.apps().get(app);
        if (a != null && a.suspend()) {
            String why = a.annotations().get(Application.ANNOTATION_SUSPEND_REASON);
            return new Hold(Hold.Reason.ApplicationSuspended, "Application/" + app + " suspended" + (why == null ? "" : ": " + why));
        }
        Cluster c = desired.clusters().get(cluster);
        if (c != null && c.suspend()) {
            String why = c.annotations().get(Application.ANNOTATION_SUSPEND_REASON);
            return new Hold(Hold.Reason.ClusterSuspended, "Cluster/" + cluster + " suspended" + (why == null ? "" : ": " + why));
        }
        Map<String, String> clusterLabels = c == null ? Map.of() : c.labels();
        for (Freeze f : desired.freezes()) {
            if (!f.coversApp(app, appLabels) || !f.coversCluster(cluster, clusterLabels)) continue;
            Optional<FreezeWindow.Window> w = FreezeWindow.openAt(f, now);
            if (w.isPresent()) {
                return new Hold(Hold.Reason.Frozen, FreezeWindow.describe(f, w.get()) + (f.reason() == null || f.reason().isEmpty() ? "" : ": " + f.reason()));
            }
        }
        return null;
    }

    /** Every Freeze window open now, in words, for the plan's summary. */
    public List<String> openFreezes() {
        List<String> out = new ArrayList<>();
        for (Freeze f : desired.freezes()) FreezeWindow.openAt(f, now).ifPresent(w -> out.add(FreezeWindow.describe(f, w)));
        return out;
    }
}
