package dev.windlass.policy.state;

import java.util.List;

/**
 * An application as recorded on the status branch ({@code status/apps/<name>.yaml}).
 *
 * @param definedIn the file that declared it: if that file breaks, the app is held, not deleted
 * @param prune     its prune setting when last seen, needed to clean up after it is deleted from Git
 * @param rollout   the current or last rollout (null when the app has no rollout policy yet)
 * @param invalidRevisions revisions whose rollout failed: never rolled out again until the content changes
 * @param lastGood  the revision every cluster ran healthy, and the commit holding it (a rollback's target)
 * @param rollouts  finished rollouts, newest first, bounded
 * @param failover  evictions in progress, failover history and failed attempts (null when it never failed over)
 * @param origin    for an application imported from Flux or Argo CD, the object it is read from, as the plan names it;
 *                  null for a native one
 */
public record AppStatus(String name, String definedIn, String revision, String source, boolean prune,
                        List<Condition> conditions, List<String> placement, List<TargetStatus> targets,
                        List<String> diagnostics, RolloutState rollout, List<String> invalidRevisions,
                        GoodRevision lastGood, List<RolloutRecord> rollouts, FailoverMemory failover,
                        dev.windlass.policy.model.ImportOrigin origin) {

    public AppStatus(String name, String definedIn, String revision, String source, boolean prune, List<Condition> conditions,
                     List<String> placement, List<TargetStatus> targets, List<String> diagnostics, RolloutState rollout,
                     List<String> invalidRevisions, GoodRevision lastGood, List<RolloutRecord> rollouts, FailoverMemory failover) {
        this(name, definedIn, revision, source, prune, conditions, placement, targets, diagnostics, rollout, invalidRevisions,
                lastGood, rollouts, failover, null);
    }

    public AppStatus(String name, String definedIn, String revision, String source, boolean prune, List<Condition> conditions,
                     List<String> placement, List<TargetStatus> targets, List<String> diagnostics, RolloutState rollout,
                     List<String> invalidRevisions, GoodRevision lastGood, List<RolloutRecord> rollouts) {
        this(name, definedIn, revision, source, prune, conditions, placement, targets, diagnostics, rollout, invalidRevisions,
                lastGood, rollouts, null);
    }

    /** A revision known to have run healthy everywhere, and the commit it can be read from. */
    public record GoodRevision(String revision, String source) {}

    public static final int HISTORY_LIMIT = 10;

    /** The status of an app without any rollout memory. */
    public AppStatus(String name, String definedIn, String revision, String source, boolean prune, List<Condition> conditions,
                     List<String> placement, List<TargetStatus> targets, List<String> diagnostics) {
        this(name, definedIn, revision, source, prune, conditions, placement, targets, diagnostics, null, List.of(), null, List.of());
    }

    public AppStatus {
        invalidRevisions = invalidRevisions == null ? List.of() : List.copyOf(invalidRevisions);
        rollouts = rollouts == null ? List.of() : List.copyOf(rollouts);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        placement = placement == null ? List.of() : List.copyOf(placement);
        targets = targets == null ? List.of() : List.copyOf(targets);
        diagnostics = diagnostics == null ? List.of() : List.copyOf(diagnostics);
        if (failover != null && failover.isEmpty()) failover = null;
    }

    /** What it remembers of failovers, never null. */
    public FailoverMemory failoverMemory() { return failover == null ? FailoverMemory.EMPTY : failover; }

    /** The same status with its origin replaced. */
    public AppStatus withOrigin(dev.windlass.policy.model.ImportOrigin replaced) {
        return new AppStatus(name, definedIn, revision, source, prune, conditions, placement, targets, diagnostics, rollout,
                invalidRevisions, lastGood, rollouts, failover, replaced);
    }

    /** The same status with its failover memory replaced. */
    public AppStatus withFailover(FailoverMemory memory) {
        return new AppStatus(name, definedIn, revision, source, prune, conditions, placement, targets, diagnostics, rollout,
                invalidRevisions, lastGood, rollouts, memory, origin);
    }

    /** The same status with other conditions. */
    public AppStatus withConditions(List<Condition> replaced) {
        return new AppStatus(name, definedIn, revision, source, prune, replaced, placement, targets, diagnostics, rollout,
                invalidRevisions, lastGood, rollouts, failover, origin);
    }

    /** The same status placed on other clusters. */
    public AppStatus withPlacement(List<String> clusters) {
        return new AppStatus(name, definedIn, revision, source, prune, conditions, clusters, targets, diagnostics, rollout,
                invalidRevisions, lastGood, rollouts, failover, origin);
    }

    /** The same status with other targets. */
    public AppStatus withTargets(List<TargetStatus> replaced) {
        return new AppStatus(name, definedIn, revision, source, prune, conditions, placement, replaced, diagnostics, rollout,
                invalidRevisions, lastGood, rollouts, failover, origin);
    }

    /** The same status with other diagnostics. */
    public AppStatus withDiagnostics(List<String> replaced) {
        return new AppStatus(name, definedIn, revision, source, prune, conditions, placement, targets, replaced, rollout,
                invalidRevisions, lastGood, rollouts, failover, origin);
    }

    /** The same status with its rollout memory replaced: the current rollout, failed revisions, last good one, history. */
    public AppStatus withRolloutMemory(RolloutState current, List<String> invalid, GoodRevision good, List<RolloutRecord> history) {
        return new AppStatus(name, definedIn, revision, source, prune, conditions, placement, targets, diagnostics, current,
                invalid, good, history, failover, origin);
    }

    public TargetStatus target(String cluster) {
        return targets.stream().filter(t -> t.cluster().equals(cluster)).findFirst().orElse(null);
    }

    public Condition condition(String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst().orElse(null);
    }
}
