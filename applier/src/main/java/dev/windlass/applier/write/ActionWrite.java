package dev.windlass.applier.write;

import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Executes one action on one cluster: deletes, orphaning and the application's namespace have one way
 * each; an object to apply goes the way the plan chose (server-side or client-side apply).
 */
public final class ActionWrite {
    private final SentBodies bodies = new SentBodies();
    private final ClientSideApply clientSide = new ClientSideApply(bodies);
    private final ServerSideApply serverSide = new ServerSideApply(bodies);
    private final HookRuns hooks;

    /** A hook (and the health a PostSync hook waits for) is given 60 s, read every second. */
    public ActionWrite() { this(new HookRuns(java.time.Duration.ofSeconds(60), java.time.Duration.ofSeconds(1))); }

    public ActionWrite(HookRuns hooks) { this.hooks = hooks; }

    /** How hooks are run: also what a PostSync hook's wait for health is asked of. */
    public HookRuns hooks() { return hooks; }

    public ActionResult apply(KubernetesClient client, Action action) { return attempt(client, action).result(); }

    /** Like {@link #apply}, also saying whether the cluster answered at all. */
    public Attempt attempt(KubernetesClient client, Action action) {
        if (action.reason() instanceof dev.windlass.policy.plan.ActionReason.HookRun) return hooks.run(client, action);
        return Attempt.run(action, () -> write(client, action, false));
    }

    /** Asks the server what {@link #attempt} would do: the same reads, every write sent as a dry run. */
    public Attempt dryRun(KubernetesClient client, Action action) {
        return Attempt.dryRun(action, () -> write(client, action, true));
    }

    private ActionResult write(KubernetesClient client, Action action, boolean dryRun) {
        if (action.operation() == Operation.Delete) return Deletion.delete(client, action, dryRun);
        if (action.operation() == Operation.Orphan) return Orphaning.release(client, action, dryRun);
        if (action.operation() == Operation.Patch) return Patching.patch(client, action, dryRun);
        if (action.operation() == Operation.Drain) return Draining.drain(client, action, dryRun);
        if (action.desired().implicit()) return ImplicitObject.ensure(client, action, dryRun);
        if (dryRun && action.reason() instanceof dev.windlass.policy.plan.ActionReason.HookRun) {
            // A hook is created anew each run: the server is asked whether it would create it. One whose last run is still
            // there is deleted first (BeforeHookCreation), which a dry run cannot show: the create would only meet the old one.
            var hook = action.desired().hook();
            var target = new dev.windlass.applier.kube.Target(client, action.apiVersion(), action.object(), true);
            if (!hook.generated() && hook.deletePolicies().contains(dev.windlass.policy.model.Hook.DeletePolicy.BeforeHookCreation)
                    && target.get().isPresent()) {
                return ActionResult.ok(action, dev.windlass.policy.plan.Outcome.Skipped, "not checked: the hook's last run is deleted first");
            }
            target.create(action.desired().body());
            return ActionResult.ok(action, dev.windlass.policy.plan.Outcome.Created, "hook would be created");
        }
        return action.strategy() == ApplyStrategy.ServerSide
                ? serverSide.write(client, action, dryRun)
                : clientSide.write(client, action, dryRun);
    }
}
