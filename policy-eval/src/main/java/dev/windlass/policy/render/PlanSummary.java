package dev.windlass.policy.render;

import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Plan;

/** The one-line summary of a plan: "2 to create, 1 to change, 0 to delete on 3 clusters". */
public record PlanSummary(long create, long update, long delete, long clusters, long held, long failovers) {

    public static PlanSummary of(Plan plan) {
        var actions = plan.actions();
        return new PlanSummary(count(plan, Operation.Create), count(plan, Operation.Update), count(plan, Operation.Delete),
                actions.stream().map(Action::cluster).distinct().count(), plan.held().size(),
                plan.failovers().values().stream().mapToLong(f -> f.started().size()).sum());
    }

    private static long count(Plan plan, Operation op) {
        return plan.actions().stream().filter(a -> a.operation() == op).count();
    }

    @Override public String toString() {
        String s = create + " to create, " + update + " to change, " + delete + " to delete on " + clusters
                + (clusters == 1 ? " cluster" : " clusters");
        if (held > 0) s += " (" + held + " held)";
        return failovers == 0 ? s : s + "; " + failovers + (failovers == 1 ? " failover starts" : " failovers start");
    }
}
