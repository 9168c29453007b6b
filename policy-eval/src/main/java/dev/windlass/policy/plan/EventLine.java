package dev.windlass.policy.plan;

import dev.windlass.policy.plan.Event.*;
import dev.windlass.policy.remediation.Durations;
import dev.windlass.policy.state.PreservedValue;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Every line of a status commit, worded here and nowhere else: one case per kind of {@link Event}. The commit message
 * ({@code engine/.../status/CommitMessage}), the daemon's log and the demo print these lines; no decision reads them.
 * Users grep {@code git log} for these words and tests assert them: change one only on purpose.
 */
public final class EventLine {
    private EventLine() {}

    public static String of(Event event) {
        return switch (event) {
            // Sync and prune
            case Synced(String app, String revision, String cluster, int created, int configured, int deleted) ->
                    app + " " + revision + " on " + cluster + ": " + counts(created, configured, deleted);
            case HookRan(String app, String cluster, var hook, var phase, var result, String message) ->
                    app + " on " + cluster + ": " + phase + " hook " + hook + " " + switch (result) {
                        case Succeeded -> "succeeded";
                        case JobFailed -> "failed: its Job failed";
                        case PodFailed -> "failed: its Pod failed";
                        case TimedOut -> "failed: it did not finish in time";
                        case NotCreated -> "failed: the cluster refused it";
                        case Unanswered -> "failed: the cluster did not answer";
                        case NotHealthy -> "not run: the application's objects did not become healthy in time";
                        case HeldByFailure -> "not run: a hook or object before it failed";
                        case NoFailure -> "not run: the sync did not fail";
                    } + (message.isEmpty() ? "" : " (" + message + ")");
            case Pruned(String app, String cluster, var object, var reason) ->
                    app + " on " + cluster + ": pruned " + object + " (" + reason.text() + ")";
            case RemovedFrom(String app, String cluster) -> app + " removed from " + cluster;
            case AppDeleted(String app) -> app + " deleted from Git and removed from every cluster";

            // Health
            case HealthChanged(String app, var health, List<String> clusters, String message, boolean waiting) -> waiting
                    ? app + " on " + String.join(", ", clusters) + " " + message
                    : app + " " + health.name().toLowerCase() + " on " + String.join(", ", clusters) + (message.isEmpty() ? "" : ": " + message);
            case ClusterReachable(String cluster) -> "cluster " + cluster + " reachable again";
            case ClusterUnreachable(String cluster, String message) -> "cluster " + cluster + " unreachable: " + message;
            case ClusterReady(String cluster) -> "cluster " + cluster + " ready again";
            case ClusterNotReady(String cluster, String message) -> "cluster " + cluster + " not ready: " + message;

            // Errors
            case ApplyFailed(String app, String cluster, var operation, var object, String failure) ->
                    app + " on " + cluster + ": " + operation + " " + object + " failed: " + failure;
            case RemovalFailed(String app, String cluster, var operation, var object, String failure) ->
                    app + ": " + operation + " " + object + " on " + cluster + " failed: " + failure;
            case RemediationFailed(String cluster, var operation, var object, String failure) ->
                    cluster + ": remediation " + operation + " " + object + " on " + cluster + " failed: " + failure;
            case AppInvalid(String app, long errors, String firstDiagnostic) ->
                    app + " is invalid (" + errors + (errors == 1 ? " error" : " errors") + "), nothing applied: " + firstDiagnostic;

            // Drift
            case Drifted(String app, String cluster, List<String> fields) -> app + " on " + cluster + ": drift in " + String.join(", ", fields);
            case DriftGone(String app, String cluster) -> app + " on " + cluster + ": drift gone";

            // Rollouts
            case RolloutSuperseded(String app, String revision, String by) -> app + " " + revision + " rollout superseded by " + by;
            case RolloutStarted(String app, String revision, String policy, int waves) ->
                    app + " " + revision + " rollout started (" + policy + ", " + waves + (waves == 1 ? " wave)" : " waves)");
            case WaveStarted(String app, String revision, int wave, int waves, List<String> clusters) ->
                    app + " " + revision + " wave " + wave + "/" + waves + " started on " + String.join(", ", clusters);
            case WaveHealthy(String app, String revision, int wave, int waves, List<String> clusters, long seconds) ->
                    app + " " + revision + " wave " + wave + "/" + waves + " (" + String.join(",", clusters) + ") healthy after " + seconds + "s";
            case RolledOut(String app, String revision, int clusters) ->
                    app + " " + revision + " rolled out to " + clusters + (clusters == 1 ? " cluster" : " clusters");
            case RolloutFailed(String app, String revision, String message) -> app + " " + revision + " rollout failed, stopped where it was: " + message;
            case RolledBack(String app, String revision, String to, String message) ->
                    app + " " + revision + " rollout failed, rolled back to " + to + ": " + message;
            case RolloutPaused(String app, String revision, String message) -> app + " " + revision + " rollout " + message;
            case RevertOffered(String app, String revision, long number) -> "revert of " + app + " " + revision + " offered as pull request #" + number;
            case RevertRefused(String app, String revision) -> "revert of " + app + " " + revision + " not offered: the Git host refused it";

            // Failover
            case FailoverStarted(String app, String from, List<String> to, var reason, var purge) ->
                    app + " failover " + from + " → " + String.join(", ", to) + " started (" + reason + "), purge " + purge;
            case StateCarried(String app, List<PreservedValue> values, List<String> to) ->
                    app + " carries " + values.stream().map(v -> v.label() + "=" + v.value()).collect(Collectors.joining(", ")) + " to "
                            + String.join(", ", to);
            case FailoverNote(String app, String note) -> app + ": " + note;
            case FailoverHealthy(String app, String from, List<String> to, var reason, long seconds) ->
                    app + " failover " + from + " → " + String.join(", ", to) + " (" + reason + ") healthy after " + seconds + "s";
            case FailoverFailed(String app, String from, List<String> to, String failure) ->
                    app + " failover " + from + " → " + String.join(", ", to) + " failed" + (failure == null ? "" : ": " + failure);
            case BackInPool(String app, String cluster) -> cluster + " is back in " + app + "'s pool: healthy for the toleration";
            case FailoverBlocked(String app, var reason, String message) -> "failover blocked (" + reason + "): " + message;
            case FailoverUnblocked(String app) -> app + " failover no longer blocked";

            // Remediation
            case RemediationUnwatched(String cluster, int targets) -> cluster + ": no remediation policy selects it now; its " + targets
                    + (targets == 1 ? " target is" : " targets are") + " no longer watched (marks stay until removed by hand)";
            case RemediationWatches(String cluster, String policy, List<String> targets, boolean added) ->
                    cluster + ": " + policy + " watches " + named(targets) + (added ? " (new)" : "");
            case RemediationNoLongerWatches(String cluster, String policy, List<String> targets) ->
                    cluster + ": " + policy + " no longer watches " + named(targets) + ": gone";
            case RemediationBlocked(String cluster, var reason, String message) -> cluster + ": remediation blocked (" + reason + "): " + message;
            case RemediationUnblocked(String cluster) -> cluster + ": remediation no longer blocked";
            case TargetMarked(String cluster, String target, String policy, Unhealthy held, String message) ->
                    target(cluster, target, policy, "marked unhealthy (" + held(held) + "): " + message);
            case TargetActedOn(String cluster, String target, String policy, Unhealthy held, String message) ->
                    target(cluster, target, policy, message + " (" + held(held) + ")");
            case TargetGivenUp(String cluster, String target, String policy, String message) -> target(cluster, target, policy, message);
            case TargetMissing(String cluster, String target, String policy, String message) -> target(cluster, target, policy, "missing: " + message);
            case TargetHealthy(String cluster, String target, String policy, boolean again, int attempts, String cordonNote) ->
                    target(cluster, target, policy, (again ? "healthy again" : "healthy")
                            + (attempts > 0 ? " after " + attempts + (attempts == 1 ? " attempt" : " attempts") : "")
                            + (cordonNote != null ? "; " + cordonNote : ""));
            case TargetUncordoned(String cluster, String target, String policy, long healthySeconds) -> target(cluster, target, policy,
                    "uncordoned and unmarked: healthy for " + Durations.seconds(healthySeconds) + " since Windlass cordoned it; its retries start over");
            case TargetAttemptsReset(String cluster, String target, String policy, long healthySeconds) ->
                    target(cluster, target, policy, "healthy for " + Durations.seconds(healthySeconds) + ": its attempts start over");
            case TargetPending(String cluster, String target, String policy, String reason, String message) ->
                    target(cluster, target, policy, reason + ": " + message);
            case TargetUnhealthy(String cluster, String target, String policy, Unhealthy held, String message) ->
                    target(cluster, target, policy, "unhealthy (" + held(held) + ")" + (message.isEmpty() ? "" : ": " + message));
            case TargetStateChanged(String cluster, String target, String policy, var state, String reason, String message) ->
                    target(cluster, target, policy, state.name().toLowerCase(Locale.ROOT) + (reason.isEmpty() ? "" : " (" + reason + ")")
                            + (message.isEmpty() ? "" : ": " + message));

            // Suspension
            case AppSuspended(String app, String why) -> app + " suspended: " + why;
            case ClusterSuspended(String cluster, String why) -> "cluster " + cluster + " suspended: " + why;
            case AppResumed(String app) -> app + " resumed";
            case ClusterResumed(String cluster) -> "cluster " + cluster + " resumed";

            // Reviews
            case ReviewPlanned(String title, String summary) -> "plan for " + title + ": " + summary;
            case ReviewClosed(String title, String mainBranch) -> "review of " + title + " closed: its head is gone or part of " + mainBranch;
            case ReviewApplied(String title, String planHash) -> "applied reviewed plan " + planHash + " of " + title;
            case ReviewRepublishedApplied(String title, String planHash) ->
                    "applied re-published plan " + planHash + " of " + title + " (it diverged from review and was held one pass)";
            case ReviewDivergedHeld(String title, String reviewed, String now) -> "held: plan diverged from review of " + title + " (reviewed "
                    + reviewed + ", now " + now + "); the fresh plan is published and applied if it is the same on the next pass";
            case ReviewDivergedApplied(String title, String reviewed, String now) ->
                    "plan diverged from review of " + title + " (reviewed " + reviewed + ", now " + now + "); applied, Git is the truth";

            // Alerts
            case AlertsRecorded(long delivered, long givenUp) -> "alerts: " + delivered + " delivered" + (givenUp > 0 ? ", " + givenUp + " given up" : "");
        };
    }

    /** "3 created, 1 configured", naming only the counts above zero. */
    private static String counts(int created, int configured, int deleted) {
        List<String> parts = new java.util.ArrayList<>();
        if (created > 0) parts.add(created + " created");
        if (configured > 0) parts.add(configured + " configured");
        if (deleted > 0) parts.add(deleted + " deleted");
        return String.join(", ", parts);
    }

    /** "Node a, Node b, Node c" or "Node a, Node b, Node c (+7 more)". */
    private static String named(List<String> targets) {
        int shown = Math.min(3, targets.size());
        return String.join(", ", targets.subList(0, shown)) + (targets.size() > shown ? " (+" + (targets.size() - shown) + " more)" : "");
    }

    /** A remediation target's line: {@code eu-1: Node a marked unhealthy (Ready=False for 1m): ... (node-health)}. */
    private static String target(String cluster, String target, String policy, String what) {
        return cluster + ": " + target + " " + what + " (" + policy + ")";
    }

    /** {@code Ready=False for 1m}; the reason alone without a since-time. */
    private static String held(Unhealthy held) {
        return held.seconds() == null ? held.reason() : held.reason() + " for " + Durations.seconds(held.seconds());
    }
}
