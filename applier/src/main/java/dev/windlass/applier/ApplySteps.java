package dev.windlass.applier;

import dev.windlass.policy.model.Hook;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ApplyOrder;
import dev.windlass.policy.plan.HookGate;
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

    /**
     * The steps of {@code actions}, in order; each a list of lanes, one per application (remediations share one).
     *
     * <p>A resource hook is its own application's business: it runs in that application's lane, in the step of the
     * application's first wave of objects (PreSync hooks, before those objects in the lane) or of its last one (PostSync
     * and SyncFail hooks, after them), so the other applications' objects of that step go side by side with it instead of
     * waiting behind a Job another application runs.
     */
    static List<List<Lane>> of(List<Action> actions) {
        long[] keys = keys(actions);
        List<Integer> planOrder = new ArrayList<>();
        for (int i = 0; i < actions.size(); i++) planOrder.add(i);
        if (actions.stream().noneMatch(a -> HookGate.phase(a) != null)) return steps(actions, keys, planOrder);
        // Only an apply stage has hooks, and it is in ascending order: a stable sort by step keeps each lane's order.
        List<Integer> byStep = new ArrayList<>(planOrder);
        byStep.sort(java.util.Comparator.comparingLong(i -> keys[i]));
        List<List<Lane>> steps = steps(actions, keys, byStep);
        boolean inOrder = steps.stream().flatMap(List::stream).allMatch(l -> l.positions().equals(l.positions().stream().sorted().toList()));
        // Never expected otherwise; if it were, the plan's own steps are kept rather than an application's order broken.
        return inOrder ? steps : steps(actions, actions.stream().mapToLong(ApplySteps::key).toArray(), planOrder);
    }

    /** The runs of consecutive actions (in {@code order}) of the same step key, each split into lanes by application. */
    private static List<List<Lane>> steps(List<Action> actions, long[] keys, List<Integer> order) {
        List<List<Lane>> steps = new ArrayList<>();
        Map<String, List<Integer>> lanes = new LinkedHashMap<>();
        long key = 0;
        for (int n = 0; n < order.size(); n++) {
            int i = order.get(n);
            long k = keys[i];
            if (n > 0 && k != key) {
                steps.add(lanes(lanes));
                lanes = new LinkedHashMap<>();
            }
            key = k;
            lanes.computeIfAbsent(actions.get(i).app(), app -> new ArrayList<>()).add(i);
        }
        if (!lanes.isEmpty()) steps.add(lanes(lanes));
        return steps;
    }

    /** Each action's step; a hook's is its application's first or last step of objects (see {@link #of}). */
    private static long[] keys(List<Action> actions) {
        long[] keys = new long[actions.size()];
        Map<String, long[]> objectSteps = new java.util.HashMap<>();  // app -> {first, last} step of its objects after Namespaces and CRDs
        for (int i = 0; i < actions.size(); i++) {
            Action a = actions.get(i);
            keys[i] = key(a);
            // The application's objects and Sync hooks, after Namespaces and CRDs: PostSync runs after all of them.
            if ((HookGate.phase(a) == null || HookGate.phase(a) == Hook.Phase.Sync) && ApplyOrder.phase(a) == 2) {
                long k = keys[i];
                objectSteps.merge(a.app(), new long[] {k, k}, (was, now) -> new long[] {Math.min(was[0], k), Math.max(was[1], k)});
            }
        }
        for (int i = 0; i < actions.size(); i++) {
            Action a = actions.get(i);
            Hook.Phase phase = HookGate.phase(a);
            long[] steps = objectSteps.get(a.app());
            if (phase == null || steps == null) continue;
            if (phase == Hook.Phase.PreSync) keys[i] = steps[0];
            else if (phase == Hook.Phase.PostSync || phase == Hook.Phase.SyncFail) keys[i] = steps[1];
        }
        return keys;
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
        return ApplyOrder.step(a);
    }
}
