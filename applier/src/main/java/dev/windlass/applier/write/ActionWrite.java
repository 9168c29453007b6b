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

    public ActionResult apply(KubernetesClient client, Action action) { return attempt(client, action).result(); }

    /** Like {@link #apply}, also saying whether the cluster answered at all. */
    public Attempt attempt(KubernetesClient client, Action action) {
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
        return action.strategy() == ApplyStrategy.ServerSide
                ? serverSide.write(client, action, dryRun)
                : clientSide.write(client, action, dryRun);
    }
}
