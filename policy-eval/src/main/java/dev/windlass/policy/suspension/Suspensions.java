package dev.windlass.policy.suspension;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Freeze;
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

    private Suspensions(DesiredState desired, Instant now) {
        this.desired = desired;
        this.now = now;
    }

    public static Suspensions at(DesiredState desired, Instant now) { return new Suspensions(desired, now); }

    /** What holds {@code app} (a name and its labels; an app deleted from Git has none) on {@code cluster}, or null. */
    public String heldBy(String app, Map<String, String> appLabels, String cluster) {
        Application a = desired.apps().get(app);
        if (a != null && a.suspend()) {
            String why = a.annotations().get(Application.ANNOTATION_SUSPEND_REASON);
            return "Application/" + app + " suspended" + (why == null ? "" : ": " + why);
        }
        Cluster c = desired.clusters().get(cluster);
        if (c != null && c.suspend()) return "Cluster/" + cluster + " suspended";
        Map<String, String> clusterLabels = c == null ? Map.of() : c.labels();
        for (Freeze f : desired.freezes()) {
            if (!f.coversApp(app, appLabels) || !f.coversCluster(cluster, clusterLabels)) continue;
            Optional<FreezeWindow.Window> w = FreezeWindow.openAt(f, now);
            if (w.isPresent()) return FreezeWindow.describe(f, w.get()) + (f.reason() == null || f.reason().isEmpty() ? "" : ": " + f.reason());
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
