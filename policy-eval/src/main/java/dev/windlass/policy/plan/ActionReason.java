package dev.windlass.policy.plan;

/**
 * Why an action is in the plan, with what that reason names. Code that decides reads these records; their words
 * ({@link #text()}) are made only where people read them: the plan, the review comment, the status commit.
 */
public sealed interface ActionReason {

    /** The reason in words, as the plan shows it. */
    String text();

    /** The application's namespace, created because the cluster does not have it. */
    record NamespaceAbsent() implements ActionReason {
        @Override public String text() { return "namespace of the application, created because it is absent"; }
    }

    /** Git declares the object and the cluster does not have it. */
    record NotOnCluster() implements ActionReason {
        @Override public String text() { return "not on the cluster"; }
    }

    /** The object on the cluster is labelled as another application's, and this one declares it now. */
    record TakenOver(String fromApp) implements ActionReason {
        @Override public String text() { return "taken over from application " + fromApp; }
    }

    /** The object is on the cluster, but Windlass never applied it there. */
    record NotAppliedYet() implements ActionReason {
        @Override public String text() { return "on the cluster but not applied by Windlass yet"; }
    }

    /** Git's content differs from what Windlass last applied. */
    record ChangedInGit() implements ActionReason {
        @Override public String text() { return "changed in Git"; }
    }

    /** Someone changed the object on the cluster; self-heal puts Git's version back. */
    record Drift() implements ActionReason {
        @Override public String text() { return "drift: changed on the cluster, self-heal restores Git's version"; }
    }

    /**
     * A recorded object the application lets go of: deleted, or, when its gc policy is Never, left on the cluster
     * unmanaged ({@code keptUnmanaged}).
     *
     * @param cluster the cluster the application left, for {@link Leave#NoLongerPlaced}
     */
    record Removed(Leave why, String cluster, boolean keptUnmanaged) implements ActionReason {
        @Override public String text() {
            String base = switch (why) {
                case FromGit -> "removed from Git";
                case NoLongerPlaced -> "application no longer placed on " + cluster;
                case AppDeleted -> "application deleted from Git";
            };
            return keptUnmanaged ? base + "; gc Never keeps it, unmanaged" : base;
        }
    }

    /** What removes an object from an application's clusters. */
    enum Leave { FromGit, NoLongerPlaced, AppDeleted }

    /** A rollout of {@code failedRevision} failed, and the cluster returns to {@code toRevision}. */
    record Rollback(String toRevision, String failedRevision) implements ActionReason {
        @Override public String text() { return "rollback to " + toRevision + ": revision " + failedRevision + " failed its rollout"; }
    }

    /** A remediation policy's step on a target it watches, and why it is taken now (in words: how long, which condition). */
    record Remediation(String policy, Step step, String why) implements ActionReason {
        @Override public String text() {
            return switch (step) {
                case Drain -> "drain: " + why;
                case Mark -> "remediation " + policy + ": mark unhealthy: " + why;
                case Unmark, Delete -> "remediation " + policy + ": " + why;
                case Cordon -> "remediation " + policy + ": cordon: " + why;
                case Uncordon -> "remediation " + policy + ": uncordon: " + why;
                case Restart -> "remediation " + policy + ": restart: " + why;
            };
        }
    }

    /** The steps remediation takes. */
    enum Step { Mark, Unmark, Cordon, Uncordon, Drain, Restart, Delete }

    /**
     * A resource hook run in a sync: {@code phase} says where, {@code weight} orders it within the phase, {@code install}
     * whether the sync is the application's first on the cluster (Helm's install hooks) or a later one (upgrade hooks).
     */
    record HookRun(dev.windlass.policy.model.Hook.Phase phase, int weight, boolean install, dev.windlass.policy.model.Hook.Source source) implements ActionReason {
        @Override public String text() {
            String when = source == dev.windlass.policy.model.Hook.Source.Helm
                    ? (phase == dev.windlass.policy.model.Hook.Phase.PreSync ? "pre-" : "post-") + (install ? "install" : "upgrade") + " hook"
                    : phase + " hook";
            return when + ", weight " + weight + switch (phase) {
                case PreSync -> ": runs before the application's objects; they wait for it to succeed";
                case Sync -> ": runs with the application's objects";
                case PostSync -> ": runs once the application's objects are applied and healthy";
                case SyncFail -> ": runs only if the sync fails";
                case Skip -> "";
            };
        }
    }
}
