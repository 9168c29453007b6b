package dev.windlass.applier.write;

import dev.windlass.applier.kube.Target;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** A JSON merge patch on an object Windlass does not manage (a remediation mark, a cordon, a restart). */
final class Patching {
    private Patching() {}

    static ActionResult patch(KubernetesClient client, Action action, boolean dryRun) {
        try {
            new Target(client, action.apiVersion(), action.object(), dryRun).mergePatch(action.desired().body());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) throw e;
            return ActionResult.failed(action, action.object() + " is gone", false);
        }
        return ActionResult.ok(action, Outcome.Configured, "patched");
    }
}
