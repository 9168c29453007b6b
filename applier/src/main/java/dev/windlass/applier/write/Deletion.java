package dev.windlass.applier.write;

import dev.windlass.applier.kube.Target;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Deletes are the same whichever apply strategy the cluster uses. */
final class Deletion {

    private Deletion() {}

    static ActionResult delete(KubernetesClient client, Action action, boolean dryRun) {
        boolean deleted = new Target(client, action.apiVersion(), action.object(), dryRun).delete();
        // An object already gone is reported Deleted, not Skipped: the state the plan asked for holds, and
        // Skipped would read as "Windlass chose not to act" while the object might still be there.
        return ActionResult.ok(action, Outcome.Deleted, deleted ? "deleted" : "already absent");
    }
}
