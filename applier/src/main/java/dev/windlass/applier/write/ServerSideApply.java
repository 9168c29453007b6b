package dev.windlass.applier.write;

import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.kube.Target;
import dev.windlass.policy.model.Manifest.ApplyMode;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Server-side apply as field manager {@value #FIELD_MANAGER}: the API server tracks which fields Windlass owns,
 * so no annotation-based merge is needed. A field owned by another manager is a conflict (409, terminal) for a
 * person to settle, unless the action says to force. Only for clusters whose API server supports it; the plan decides.
 */
public final class ServerSideApply {

    public static final String FIELD_MANAGER = "windlass";

    private final SentBodies bodies;

    ServerSideApply(SentBodies bodies) {
        this.bodies = bodies;
    }

    /** Applies the action's object (never a delete, an orphaning or the implicit namespace: see {@link ActionWrite}). */
    ActionResult write(KubernetesClient client, Action action, boolean dryRun) {
        // The marks are sent too: observation finds objects by label whichever way they were applied, and the
        // last-applied annotation keeps a later switch to client-side apply able to remove fields.
        SentBodies.Sent sent = bodies.of(client, action);
        Target target = new Target(client, action.desired().apiVersion(), action.object(), dryRun);
        // The plan saw no such object, so a create goes out without a look first: one request per new object, not
        // two (an apply is an upsert either way). Apply-once objects are looked at, so an existing one stays as it is.
        boolean look = action.operation() != Operation.Create || action.desired().applyMode() == ApplyMode.ONCE;
        Optional<Map<String, Object>> live = look ? target.get() : Optional.empty();
        List<String> changes = live.map(l -> ChangedFields.between(PreparedObject.of(action), l)).orElse(List.of());
        if (live.isPresent()) {
            if (action.operation() == Operation.Create && action.desired().applyMode() == ApplyMode.ONCE) {
                return ActionResult.ok(action, Outcome.Unchanged, "exists; applied once, so left as it is");
            }
            // An apply reaches the server as a write even when it would change nothing; looking first keeps an
            // object that already is as Git says unwritten.
            if (changes.isEmpty() && action.desired().hash().equals(appliedHash(live.get()))) {
                return ActionResult.ok(action, Outcome.Unchanged, "up to date");
            }
        }
        Map<String, Object> after;
        try {
            after = target.serverSideApply(sent.body(), FIELD_MANAGER, action.force());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) return ActionResult.failed(action, conflict(e), false);
            throw e;
        }
        if (live.isEmpty()) {
            // Someone created it since the plan looked: its other field managers tell.
            if (!look && managedByOthersToo(after)) return ActionResult.ok(action, Outcome.Configured, "adopted existing object (server-side apply)");
            String how = action.operation() == Operation.Update ? "was missing; created" : "created";
            return ActionResult.ok(action, Outcome.Created, how + " (server-side apply)");
        }
        // An apply that changes nothing does not bump the resource version. A dry run never bumps it, but it only
        // gets here when a field or the applied hash differs.
        if (!dryRun && Objects.equals(resourceVersion(live.get()), resourceVersion(after))) {
            return ActionResult.ok(action, Outcome.Unchanged, "up to date");
        }
        return ActionResult.ok(action, Outcome.Configured, "applied " + ChangedFields.summary(changes)
                + (action.force() ? " (server-side apply, conflicts forced)" : " (server-side apply)"));
    }

    private static boolean managedByOthersToo(Map<String, Object> object) {
        Map<String, Object> meta = JsonTree.childMap(object, "metadata");
        if (meta == null || !(meta.get("managedFields") instanceof List<?> managers)) return false;
        return managers.stream().anyMatch(m -> m instanceof Map<?, ?> entry && !FIELD_MANAGER.equals(entry.get("manager")));
    }

    /** The server names the fields and their manager: {@code conflict with "kubectl-edit" using apps/v1: .spec.replicas}. */
    static String conflict(KubernetesClientException e) {
        String said = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
        return "conflict: " + said + "; another field manager owns these fields: change them in Git to match, "
                + "or set spec.syncPolicy.force to take them over";
    }

    static String appliedHash(Map<String, Object> live) {
        Map<String, Object> meta = JsonTree.childMap(live, "metadata");
        Map<String, Object> annotations = meta == null ? null : JsonTree.childMap(meta, "annotations");
        Object hash = annotations == null ? null : annotations.get(OwnershipMarks.APPLIED_HASH);
        return hash == null ? "" : hash.toString();
    }

    private static String resourceVersion(Map<String, Object> object) {
        Map<String, Object> meta = JsonTree.childMap(object, "metadata");
        return meta == null ? "" : String.valueOf(meta.get("resourceVersion"));
    }
}
