package dev.windlass.policy.plan;

import dev.windlass.policy.failover.FailoverBlock;
import dev.windlass.policy.model.FailoverPolicy.PurgeMode;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.remediation.RemediationBlock;
import dev.windlass.policy.state.EvictionReason;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.PreservedValue;
import dev.windlass.policy.state.RemediationRecord;
import java.util.List;

/**
 * Something that happened in a pass, worth a line in the status commit: one record per kind, holding data (names,
 * counts, enums, typed reasons), never its words. {@link EventLine} writes every line; {@link #type()} is the
 * {@code Windlass-Event} trailer. A String field holds text that is not Windlass's to word: a message from an API
 * server, a note, a recorded condition's message, a diagnostic.
 */
public sealed interface Event {
    enum Type { Sync, Prune, Health, Drift, Rollout, Failover, Remediation, Suspension, Review, Error, Alert }

    /** The {@code Windlass-Event} trailer word of this kind of event. */
    default Type type() {
        return switch (this) {
            case Synced _ -> Type.Sync;
            case HookRan h -> h.result().failed() ? Type.Error : Type.Sync;
            case Pruned _, RemovedFrom _, AppDeleted _ -> Type.Prune;
            case HealthChanged h -> h.health() == Health.Degraded ? Type.Error : Type.Health;
            case ClusterReachable _, ClusterReady _ -> Type.Health;
            case ApplyFailed _, RemovalFailed _, RemediationFailed _, AppInvalid _, ClusterUnreachable _, ClusterNotReady _ -> Type.Error;
            case Drifted _, DriftGone _ -> Type.Drift;
            case RolloutSuperseded _, RolloutStarted _, WaveStarted _, WaveHealthy _, RolledOut _, RolloutFailed _, RolledBack _,
                 RolloutPaused _, RevertOffered _, RevertRefused _ -> Type.Rollout;
            case FailoverStarted _, StateCarried _, FailoverNote _, FailoverHealthy _, FailoverFailed _, BackInPool _, FailoverBlocked _,
                 FailoverUnblocked _ -> Type.Failover;
            case RemediationUnwatched _, RemediationWatches _, RemediationNoLongerWatches _, RemediationBlocked _, RemediationUnblocked _,
                 TargetMarked _, TargetActedOn _, TargetGivenUp _, TargetMissing _, TargetHealthy _, TargetUncordoned _,
                 TargetAttemptsReset _, TargetPending _, TargetUnhealthy _, TargetStateChanged _ -> Type.Remediation;
            case AppSuspended _, ClusterSuspended _, AppResumed _, ClusterResumed _ -> Type.Suspension;
            case ReviewPlanned _, ReviewClosed _, ReviewApplied _, ReviewRepublishedApplied _, ReviewDivergedHeld _,
                 ReviewDivergedApplied _ -> Type.Review;
            case AlertsRecorded _ -> Type.Alert;
        };
    }

    // Sync and prune

    /** Objects written to {@code cluster} for {@code app} at {@code revision}; at least one count is above zero. */
    record Synced(String app, String revision, String cluster, int created, int configured, int deleted) implements Event {}

    /** An object deleted from {@code cluster}, and why it was in the plan. */
    /**
     * A resource hook of {@code app} ran on {@code cluster} (or, held by a failure before it, did not): {@code result}
     * says what came of it; {@code message} is the cluster's or the Job's own words, or "".
     */
    record HookRan(String app, String cluster, ObjectRef hook, dev.windlass.policy.model.Hook.Phase phase, HookResult result, String message) implements Event {}

    record Pruned(String app, String cluster, ObjectRef object, ActionReason reason) implements Event {}

    /** {@code app} no longer has anything on {@code cluster}, which it left. */
    record RemovedFrom(String app, String cluster) implements Event {}

    /** An application deleted from Git, with nothing left of it on any cluster. */
    record AppDeleted(String app) implements Event {}

    // Health

    /**
     * {@code app} reached {@code health} on {@code clusters} with one message; {@code waiting}: the message says what it waits on.
     * Degraded is an {@code Error}.
     */
    record HealthChanged(String app, Health health, List<String> clusters, String message, boolean waiting) implements Event {}

    record ClusterReachable(String cluster) implements Event {}

    /** @param message why the cluster did not answer */
    record ClusterUnreachable(String cluster, String message) implements Event {}

    record ClusterReady(String cluster) implements Event {}

    record ClusterNotReady(String cluster, String message) implements Event {}

    // Errors

    /** A write for {@code app} that {@code cluster} refused; {@code failure} is the API server's message. */
    record ApplyFailed(String app, String cluster, Operation operation, ObjectRef object, String failure) implements Event {}

    /** A write removing what {@code app} left on {@code cluster} that the cluster refused. */
    record RemovalFailed(String app, String cluster, Operation operation, ObjectRef object, String failure) implements Event {}

    /** A remediation action (cordon, drain, mark) that {@code cluster} refused. */
    record RemediationFailed(String cluster, Operation operation, ObjectRef object, String failure) implements Event {}

    /** An application whose files have {@code errors} errors; {@code firstDiagnostic} is empty when none is listed. */
    record AppInvalid(String app, long errors, String firstDiagnostic) implements Event {}

    // Drift

    /** @param fields "object: field" for each drifted field */
    record Drifted(String app, String cluster, List<String> fields) implements Event {}

    record DriftGone(String app, String cluster) implements Event {}

    // Rollouts

    record RolloutSuperseded(String app, String revision, String byRevision) implements Event {}

    record RolloutStarted(String app, String revision, String policy, int waves) implements Event {}

    record WaveStarted(String app, String revision, int wave, int waves, List<String> clusters) implements Event {}

    /** @param seconds from the wave's first start to its last finish */
    record WaveHealthy(String app, String revision, int wave, int waves, List<String> clusters, long seconds) implements Event {}

    record RolledOut(String app, String revision, int clusters) implements Event {}

    /** @param message the rollout's recorded message: why it failed */
    record RolloutFailed(String app, String revision, String message) implements Event {}

    record RolledBack(String app, String revision, String toRevision, String message) implements Event {}

    /** @param message the rollout's recorded message: what paused it */
    record RolloutPaused(String app, String revision, String message) implements Event {}

    /** A revert of the failed revision was opened as pull request {@code number} on the Git host. */
    record RevertOffered(String app, String revision, long number) implements Event {}

    /** The Git host refused the revert's pull request (a 4xx): it is not asked again for this revision. */
    record RevertRefused(String app, String revision) implements Event {}

    // Failover

    /** @param to the replacement clusters, or the placement after the failover when it names none */
    record FailoverStarted(String app, String from, List<String> to, EvictionReason reason, PurgeMode purge) implements Event {}

    record StateCarried(String app, List<PreservedValue> values, List<String> to) implements Event {}

    /** @param note what could not be carried over and why */
    record FailoverNote(String app, String note) implements Event {}

    record FailoverHealthy(String app, String from, List<String> to, EvictionReason reason, long seconds) implements Event {}

    /** @param failure the recorded failure, null when none is recorded */
    record FailoverFailed(String app, String from, List<String> to, String failure) implements Event {}

    /** {@code cluster} was healthy for the toleration and is back in {@code app}'s pool. */
    record BackInPool(String app, String cluster) implements Event {}

    /** @param message the FailoverBlocked condition's message */
    record FailoverBlocked(String app, FailoverBlock reason, String message) implements Event {}

    record FailoverUnblocked(String app) implements Event {}

    // Remediation

    /** No remediation policy selects {@code cluster} any longer; {@code targets} were watched. */
    record RemediationUnwatched(String cluster, int targets) implements Event {}

    /** @param targets the targets {@code policy} watches from now on; {@code added}: it watched others before */
    record RemediationWatches(String cluster, String policy, List<String> targets, boolean added) implements Event {}

    record RemediationNoLongerWatches(String cluster, String policy, List<String> targets) implements Event {}

    /** @param message the RemediationBlocked condition's message */
    record RemediationBlocked(String cluster, RemediationBlock reason, String message) implements Event {}

    record RemediationUnblocked(String cluster) implements Event {}

    /**
     * How long a target has been unhealthy at the pass, for its line: {@code reason} ("Ready=False") and, when a since-time is
     * known, the whole seconds; null seconds: the reason alone.
     */
    record Unhealthy(String reason, Long seconds) {
        static Unhealthy of(RemediationRecord r, java.time.Instant now) {
            return new Unhealthy(r.reason(), r.unhealthySince() == null || r.reason().isEmpty() ? null
                    : dev.windlass.policy.remediation.Durations.between(r.unhealthySince(), now));
        }
    }

    /** A target of {@code policy} on {@code cluster} marked unhealthy; {@code message} is its record's message. */
    record TargetMarked(String cluster, String target, String policy, Unhealthy held, String message) implements Event {}

    /** An action taken on a target (the one a mark opened an attempt for, or a retry); {@code message} says which. */
    record TargetActedOn(String cluster, String target, String policy, Unhealthy held, String message) implements Event {}

    record TargetGivenUp(String cluster, String target, String policy, String message) implements Event {}

    record TargetMissing(String cluster, String target, String policy, String message) implements Event {}

    /**
     * @param again      it was healthy before
     * @param cordonNote the record's message when Windlass had cordoned it, null otherwise
     */
    record TargetHealthy(String cluster, String target, String policy, boolean again, int attempts, String cordonNote) implements Event {}

    record TargetUncordoned(String cluster, String target, String policy, long healthySeconds) implements Event {}

    record TargetAttemptsReset(String cluster, String target, String policy, long healthySeconds) implements Event {}

    record TargetPending(String cluster, String target, String policy, String reason, String message) implements Event {}

    record TargetUnhealthy(String cluster, String target, String policy, Unhealthy held, String message) implements Event {}

    /** Any other change of a target's record: its new state, reason and message. */
    record TargetStateChanged(String cluster, String target, String policy, RemediationRecord.State state, String reason, String message)
            implements Event {}

    // Suspension

    /** @param why the Suspended condition's message: what holds it, and where */
    record AppSuspended(String app, String why) implements Event {}

    record ClusterSuspended(String cluster, String why) implements Event {}

    record AppResumed(String app) implements Event {}

    record ClusterResumed(String cluster) implements Event {}

    // Reviews

    /** The plan of a pull request's head, recorded; {@code summary} is the review comment's summary line. */
    record ReviewPlanned(String title, String summary) implements Event {}

    /** A review whose head is gone or part of {@code mainBranch}. */
    record ReviewClosed(String title, String mainBranch) implements Event {}

    record ReviewApplied(String title, String planHash) implements Event {}

    /** The plan diverged from review, was held one pass while the fresh one was published, and is applied now. */
    record ReviewRepublishedApplied(String title, String planHash) implements Event {}

    /** The plan diverged from review and {@code requireUndiverged} holds it. */
    record ReviewDivergedHeld(String title, String reviewedHash, String planHash) implements Event {}

    /** The plan diverged from review and is applied: Git is the truth. */
    record ReviewDivergedApplied(String title, String reviewedHash, String planHash) implements Event {}

    // Alerts

    /** What the alert workers finished since the last record. */
    record AlertsRecorded(long delivered, long givenUp) implements Event {}
}
