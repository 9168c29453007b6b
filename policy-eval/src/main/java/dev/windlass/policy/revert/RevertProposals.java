package dev.windlass.policy.revert;

import dev.windlass.policy.alert.Provider;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.RolloutPolicy;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.RolloutState;
import java.util.ArrayList;
import java.util.List;

/**
 * Which failed rollouts are offered as a revert pull request now. One is due for an application when its RolloutPolicy
 * asks for one ({@code spec.revertPullRequest}) through a usable GitHub or Gitea Provider, its last rollout failed
 * (rolled back, or stopped with {@code onFailure: Pause}), a last good revision and its commit are recorded, the config
 * tip still holds the failed revision (nobody pushed a fix or a revert yet), and nothing was recorded for that revision.
 */
public final class RevertProposals {
    private RevertProposals() {}

    /** The branch a revert of {@code revision} of {@code app} is pushed to. */
    public static String branch(String app, String revision) {
        return "windlass/revert/" + app + "-" + revision.substring(0, Math.min(7, revision.length()));
    }

    /**
     * One revert to offer: restore the files under {@code sourcePath} to what {@code goodSource} had, on top of the config
     * commit the pass read, and ask {@code provider} for a pull request from {@code branch}.
     *
     * @param failedClusters the clusters whose failure ended the rollout
     */
    public record Due(String app, String sourcePath, String revision, String goodRevision, String goodSource, String message,
                      List<String> failedClusters, Provider provider, String branch) {}

    public static List<Due> due(EngineState state, DesiredState desired, List<RevertRecord> recorded) {
        List<Due> out = new ArrayList<>();
        for (Application app : desired.apps().values()) {
            RolloutPolicy policy = desired.rolloutPolicy(app.name());
            if (policy == null || policy.revertPullRequest() == null) continue;
            Provider provider = desired.alerting().providers().get(policy.revertPullRequest().providerRef());
            if (provider == null || !provider.type().commitStatus()) continue;
            AppStatus status = state.apps().get(app.name());
            RolloutState rollout = status == null ? null : status.rollout();
            if (rollout == null) continue;
            if (rollout.result() != RolloutState.Result.RolledBack && rollout.result() != RolloutState.Result.Failed) continue;
            if (rollout.previousRevision() == null || rollout.previousRevision().isEmpty() || rollout.previousSource() == null || rollout.previousSource().isEmpty()) continue;
            if (!rollout.revision().equals(app.revision())) continue;
            if (app.sourcePath() == null || app.sourcePath().isEmpty()) continue;
            if (recorded.stream().anyMatch(r -> r.about(app.name(), rollout.revision()))) continue;
            out.add(new Due(app.name(), app.sourcePath(), rollout.revision(), rollout.previousRevision(), rollout.previousSource(),
                    rollout.message(), rollout.failedClusters(), provider, branch(app.name(), rollout.revision())));
        }
        return out;
    }
}
