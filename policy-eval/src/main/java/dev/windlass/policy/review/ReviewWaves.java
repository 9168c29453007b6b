package dev.windlass.policy.review;

import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.AppPlan;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.RolloutState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The changes a merge would cause, in the order they would reach the clusters: wave 1 is what the first pass after
 * the merge applies; a later wave is what a rollout policy holds until the wave before it has succeeded. Actions
 * held by anything else (a freeze, a suspension, a dependency) are not part of any wave: they are {@link #held()}.
 */
public record ReviewWaves(List<Wave> waves, List<HeldAction> held) {

    /** @param gates how the wave is reached, one line per rollout policy ("" for the first wave) */
    public record Wave(int number, List<String> gates, SortedMap<String, List<Action>> byCluster) {
        public long count() { return byCluster.values().stream().mapToLong(List::size).sum(); }
    }

    public static ReviewWaves of(Plan plan) {
        Map<String, AppPlan> apps = new TreeMap<>();
        plan.apps().forEach(a -> apps.put(a.app(), a));
        SortedMap<Integer, SortedMap<String, List<Action>>> byWave = new TreeMap<>();
        SortedMap<Integer, TreeSet<String>> gates = new TreeMap<>();
        List<HeldAction> held = new ArrayList<>();
        for (Action a : plan.actions()) place(byWave, gates, waveOf(plan, a), a, plan.rollouts().get(a.app()));
        for (HeldAction h : plan.held()) {
            Action a = h.action();
            RolloutState r = plan.rollouts().get(a.app());
            ClusterStep step = r == null ? null : r.step(a.cluster());
            AppPlan app = apps.get(a.app());
            boolean frozen = app != null && app.suspendedOn().containsKey(a.cluster());
            if (step != null && step.state() == ClusterStep.State.Pending && !frozen && r.active()) place(byWave, gates, step.wave(), a, r);
            else held.add(h);
        }
        List<Wave> waves = new ArrayList<>();
        byWave.forEach((n, clusters) -> waves.add(new Wave(n, List.copyOf(gates.getOrDefault(n, new TreeSet<>())), clusters)));
        return new ReviewWaves(List.copyOf(waves), List.copyOf(held));
    }

    public long count(Operation op) {
        return waves.stream().flatMap(w -> w.byCluster().values().stream()).flatMap(List::stream).filter(a -> a.operation() == op).count();
    }

    public long clusters() {
        return waves.stream().flatMap(w -> w.byCluster().keySet().stream()).distinct().count();
    }

    private static int waveOf(Plan plan, Action a) {
        RolloutState r = plan.rollouts().get(a.app());
        ClusterStep step = r == null ? null : r.step(a.cluster());
        return step == null ? 1 : Math.max(1, step.wave());
    }

    private static void place(SortedMap<Integer, SortedMap<String, List<Action>>> byWave, SortedMap<Integer, TreeSet<String>> gates,
                              int wave, Action a, RolloutState r) {
        byWave.computeIfAbsent(wave, k -> new TreeMap<>()).computeIfAbsent(a.cluster(), k -> new ArrayList<>()).add(a);
        if (wave > 1 && r != null) {
            gates.computeIfAbsent(wave, k -> new TreeSet<>()).add(a.app() + " (RolloutPolicy " + r.policy() + "): once wave " + (wave - 1)
                    + " has succeeded; " + r.gate());
        }
    }
}
