package dev.windlass.applier;

import dev.windlass.policy.plan.Action;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one cluster's share of a stage may be applied side by side without breaking the plan's order. The plan orders a
 * cluster's actions: Namespaces and CRDs first, then PreSync hooks, the other objects, PostSync and SyncFail hooks, each
 * by {@code windlass.dev/wave} or hook weight (deletes in reverse). That order is
 * kept between <em>steps</em>, the runs of consecutive actions of the same phase and wave: a step starts when the one
 * before has finished. Within a step, each application's actions keep their order (one after another, as the plan has
 * them: a ServiceAccount before the Deployment that runs as it), and different applications go side by side.
 *
 * <p>{@code dependsOn} needs nothing here: the planner holds an application's actions on a cluster until its
 * dependencies are Healthy there, so a dependency is never still being applied when its dependent is.
 */
final class ApplySteps {

    /** One application's actions in a step, with their positions in the cluster's share of the stage. */
    record Lane(String app, List<Integer> positions) {}

    private ApplySteps() {}

    /** The steps of {@code actions}, in order; each a list of lanes, one per application (remediations share one). */
    static List<List<Lane>> of(List<Action> actions) {
        List<List<Lane>> steps = new ArrayList<>();
        Map<String, List<Integer>> lanes = new LinkedHashMap<>();
        long key = 0;
        for (int i = 0; i < actions.size(); i++) {
            Action a = actions.get(i);
            long k = key(a);
            if (i > 0 && k != key) {
                steps.add(lanes(lanes));
                lanes = new LinkedHashMap<>();
            }
            key = k;
            lanes.computeIfAbsent(a.app(), app -> new ArrayList<>()).add(i);
        }
        if (!lanes.isEmpty()) steps.add(lanes(lanes));
        return steps;
    }

    /** Every action as one lane, in the plan's order: for one write at a time. */
    static Lane inOrder(List<Action> actions) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < actions.size(); i++) all.add(i);
        return new Lane("", List.copyOf(all));
    }

    private static List<Lane> lanes(Map<String, List<Integer>> byApp) {
        List<Lane> out = new ArrayList<>();
        byApp.forEach((app, positions) -> out.add(new Lane(app, List.copyOf(positions))));
        return out;
    }

    /** Phase (Namespaces and CRDs, PreSync hooks, the rest, PostSync hooks, SyncFail hooks) and wave, as the plan orders them. */
    private static long key(Action a) {
        return dev.windlass.policy.plan.ApplyOrder.step(a);
    }
}
