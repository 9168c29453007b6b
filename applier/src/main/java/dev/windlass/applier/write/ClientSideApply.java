package dev.windlass.applier.write;

import dev.windlass.applier.kube.Target;
import dev.windlass.policy.model.Manifest.ApplyMode;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.Optional;

/**
 * Client-side apply: the last state applied from Git is kept on the object in an annotation, and each write
 * is a three-way JSON merge patch against it, for API servers without server-side apply.
 */
public final class ClientSideApply {

    private final SentBodies bodies;

    ClientSideApply(SentBodies bodies) {
        this.bodies = bodies;
    }

    /** Applies the action's object (never a delete, an orphaning or the implicit namespace: see {@link ActionWrite}). */
    ActionResult write(KubernetesClient client, Action action, boolean dryRun) {
        SentBodies.Sent sent = bodies.of(client, action);
        if (sent.annotationBytes() > PreparedObject.ANNOTATIONS_LIMIT) return tooBig(action, sent.annotationBytes());
        Target target = new Target(client, action.desired().apiVersion(), action.object(), dryRun);
        // The plan saw no such object, so a create goes straight out: one request per new object, not two. An
        // object someone created since answers 409 and is looked at and patched below. Apply-once objects are
        // looked at first, so an existing one is never written to at all.
        boolean look = action.operation() != Operation.Create || action.desired().applyMode() == ApplyMode.ONCE;
        Optional<Map<String, Object>> live = look ? target.get() : Optional.empty();
        if (live.isPresent()) return patch(target, PreparedObject.of(action), live.get(), action);
        try {
            target.create(sent.body());
            String how = action.operation() == Operation.Update ? "was missing; created" : "created";
            return ActionResult.ok(action, Outcome.Created, how);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw e;
            Map<String, Object> existing = target.get().orElseThrow(() -> e);
            return patch(target, PreparedObject.of(action), existing, action);
        }
    }

    /**
     * The copy client-side apply keeps in an annotation would pass the API server's limit: said before anything is
     * sent, naming the object, instead of the server's 422 about annotations the user never wrote.
     */
    private static ActionResult tooBig(Action action, int annotationBytes) {
        return ActionResult.failed(action, action.object() + " is too big for client-side apply: with the copy of the object"
                + " it keeps in annotation " + dev.windlass.applier.kube.OwnershipMarks.LAST_APPLIED + ", its annotations take "
                + annotationBytes + " bytes, over the API server's limit of " + PreparedObject.ANNOTATIONS_LIMIT
                + "; apply it server-side (spec.syncPolicy.applyStrategy: ServerSide, on a cluster that supports it)", false);
    }

    private ActionResult patch(Target target, PreparedObject prepared, Map<String, Object> live, Action action) {
        if (action.operation() == Operation.Create && action.desired().applyMode() == ApplyMode.ONCE) {
            return ActionResult.ok(action, Outcome.Unchanged, "exists; applied once, so left as it is");
        }
        boolean ours = PreparedObject.managedByWindlass(live);
        Map<String, Object> patch =
                ThreeWayMergePatch.between(PreparedObject.lastAppliedOn(live), prepared.body(), live);
        if (patch.isEmpty()) return ActionResult.ok(action, Outcome.Unchanged, "up to date");
        target.mergePatch(patch);
        String fields = ChangedFields.summary(ThreeWayMergePatch.paths(patch));
        return ActionResult.ok(action, Outcome.Configured,
                ours ? "patched " + fields : "adopted existing object; patched " + fields);
    }
}
