package dev.windlass.policy.plan;

import dev.windlass.policy.model.Diagnostic;
import java.util.List;

/**
 * What one pass will do, as an immutable value: same inputs, same plan, same text, same {@link #hash()}.
 * The applier executes it and never re-decides.
 *
 * @param hash a stable hash over everything that would be written (not over wall-clock time)
 * @param rollouts    each rolled-out application's rollout after this plan's decisions
 * @param recordFirst true when clusters start a rollout step in this plan: the rollouts must be recorded
 *                    on the status branch before anything is applied, so a restart never repeats or skips a step
 */
public record Plan(String sourceCommit, List<Stage> stages, List<HeldAction> held, List<AppPlan> apps,
                   List<Diagnostic> diagnostics, String hash, java.util.Map<String, dev.windlass.policy.state.RolloutState> rollouts,
                   boolean recordFirst) {

    public Plan {
        rollouts = java.util.Map.copyOf(rollouts);
        stages = List.copyOf(stages);
        held = List.copyOf(held);
        apps = List.copyOf(apps);
        diagnostics = List.copyOf(diagnostics);
    }

    public List<Action> actions() {
        return stages.stream().flatMap(s -> s.actions().stream()).toList();
    }

    public boolean hasChanges() { return !actions().isEmpty(); }

    public boolean hasErrors() { return diagnostics.stream().anyMatch(Diagnostic::isError); }
}
