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
 *                    (and evictions started, before the application moves)
 * @param failovers   each application's failover decisions (only applications with a failover policy or memory)
 * @param failoverHold why no cluster failover starts in this pass (too many clusters unhealthy at once), or null
 * @param remediation  per cluster with remediation policies, its watched targets' records and what blocks acting
 */
public record Plan(String sourceCommit, List<Stage> stages, List<HeldAction> held, List<AppPlan> apps,
                   List<Diagnostic> diagnostics, String hash, java.util.Map<String, dev.windlass.policy.state.RolloutState> rollouts,
                   boolean recordFirst, java.util.Map<String, dev.windlass.policy.failover.AppFailover> failovers, String failoverHold,
                   java.util.Map<String, dev.windlass.policy.remediation.Remediations.ClusterRemediation> remediation) {

    public Plan(String sourceCommit, List<Stage> stages, List<HeldAction> held, List<AppPlan> apps, List<Diagnostic> diagnostics,
                String hash, java.util.Map<String, dev.windlass.policy.state.RolloutState> rollouts, boolean recordFirst) {
        this(sourceCommit, stages, held, apps, diagnostics, hash, rollouts, recordFirst, java.util.Map.of(), null, java.util.Map.of());
    }

    public Plan {
        rollouts = java.util.Map.copyOf(rollouts);
        failovers = failovers == null ? java.util.Map.of() : java.util.Map.copyOf(failovers);
        remediation = remediation == null ? java.util.Map.of() : java.util.Map.copyOf(remediation);
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
