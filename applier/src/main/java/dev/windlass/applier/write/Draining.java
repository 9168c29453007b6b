package dev.windlass.applier.write;

import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Evicts every pod from a node through the eviction API, so the API server enforces PodDisruptionBudgets: a pod
 * whose budget does not allow it now is left, and the drain reports it (the next attempt tries again). Pods of
 * DaemonSets and static (mirror) pods are left alone, as a drain does.
 */
final class Draining {
    private Draining() {}

    static ActionResult drain(KubernetesClient client, Action action, boolean dryRun) {
        String node = action.object().name();
        List<Pod> pods = client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems();
        int evicted = 0;
        List<String> refused = new ArrayList<>();
        for (Pod pod : pods) {
            if (daemonOrMirror(pod)) continue;
            if (dryRun) {
                evicted++;
                continue;
            }
            boolean ok = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).evict();
            if (ok) evicted++;
            else refused.add(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
        }
        if (!refused.isEmpty()) {
            return ActionResult.failed(action, "evicted " + evicted + " pods; a PodDisruptionBudget does not allow evicting "
                    + String.join(", ", refused) + " now", true);
        }
        return ActionResult.ok(action, Outcome.Configured, "drained: " + evicted + (evicted == 1 ? " pod" : " pods") + " evicted");
    }

    private static boolean daemonOrMirror(Pod pod) {
        var annotations = pod.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey("kubernetes.io/config.mirror")) return true;
        List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
        return owners != null && owners.stream().anyMatch(o -> "DaemonSet".equals(o.getKind()));
    }
}
