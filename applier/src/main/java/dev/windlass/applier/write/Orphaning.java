package dev.windlass.applier.write;

import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.kube.Target;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.Map;

/**
 * Letting go of an object without deleting it (gc policy Never): Windlass's labels and annotations are removed,
 * so it is no longer observed as managed and never pruned. One JSON merge patch whichever way the object was
 * applied: a server-side "release" (applying without the fields) would also remove every field only Windlass
 * set, which is the opposite of keeping the object.
 */
final class Orphaning {

    static final String MESSAGE = "orphaned: kept, no longer managed";

    private Orphaning() {}

    static ActionResult release(KubernetesClient client, Action action, boolean dryRun) {
        Target target = new Target(client, action.apiVersion(), action.object(), dryRun);
        try {
            target.mergePatch(patch());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) throw e;
            return ActionResult.ok(action, Outcome.Unchanged, "already absent; nothing to let go of");
        }
        return ActionResult.ok(action, Outcome.Configured, MESSAGE);
    }

    /** {@code null} deletes a key in a merge patch; keys that are not there are left as they are. */
    private static Map<String, Object> patch() {
        Map<String, Object> labels = new HashMap<>();
        labels.put(OwnershipMarks.MANAGED_BY, null);
        labels.put(OwnershipMarks.APP, null);
        Map<String, Object> annotations = new HashMap<>();
        annotations.put(OwnershipMarks.APPLIED_HASH, null);
        annotations.put(OwnershipMarks.LAST_APPLIED, null);
        return Map.of("metadata", Map.of("labels", labels, "annotations", annotations));
    }
}
