package dev.windlass.applier.write;

import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.Target;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;

/**
 * Objects Windlass adds on its own (an application's namespace): created when absent, never patched, and
 * not marked as managed, so they are never observed as Windlass's and never pruned.
 */
final class ImplicitObject {

    private ImplicitObject() {}

    static ActionResult ensure(KubernetesClient client, Action action, boolean dryRun) {
        Target target = new Target(client, action.desired().apiVersion(), action.object(), dryRun);
        // A create the plan decided (it saw the namespace absent) goes out at once; someone creating it since
        // answers 409. Any other operation looks first, so running it again sends nothing.
        if (action.operation() != Operation.Create && target.get().isPresent()) return ActionResult.ok(action, Outcome.Unchanged, "exists");
        try {
            Map<String, Object> body = JsonTree.copy(action.desired().body());
            target.create(body);
            return ActionResult.ok(action, Outcome.Created, "created (implicit)");
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) return ActionResult.ok(action, Outcome.Unchanged, "exists");
            throw e;
        }
    }
}
