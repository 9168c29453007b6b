package dev.windlass.dashboard;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.TargetKey;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.suspension.Suspensions;
import java.util.HashMap;
import java.util.Map;

/**
 * What holds an application on a cluster in a view: a suspension or an open freeze (asked of {@link Suspensions} at the
 * view's time, as the planner asks), else the first held action of the plan there, with what holds it.
 */
final class Holds {
    /** Why, and whether it is a suspension or freeze rather than another gate (rollout wave, dependency, invalid revision). */
    record Hold(String reason, boolean suspended) {}

    private final FleetView view;
    private final Suspensions suspensions;
    private final Map<TargetKey, String> planHolds = new HashMap<>();

    Holds(FleetView view) {
        this.view = view;
        this.suspensions = Suspensions.at(view.desired(), view.state(), view.at());
        for (HeldAction h : view.plan().held()) planHolds.putIfAbsent(new TargetKey(h.action().app(), h.action().cluster()), h.reason().text());
    }

    Hold of(String app, String cluster) {
        Application a = view.desired().apps().get(app);
        dev.windlass.policy.suspension.Hold suspended = suspensions.hold(app, a == null ? Map.of() : a.labels(), cluster);
        if (suspended != null) return new Hold(suspended.text(), true);
        String held = planHolds.get(new TargetKey(app, cluster));
        return held == null ? null : new Hold(held, false);
    }

}
