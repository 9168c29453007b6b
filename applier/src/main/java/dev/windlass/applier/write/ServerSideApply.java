package dev.windlass.applier.write;

import dev.windlass.applier.kube.Target;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Server-side apply as field manager {@value #FIELD_MANAGER}: the API server tracks which fields Windlass owns,
 * so no annotation-based merge is needed. Never forced; a field owned by another manager is a conflict
 * (409, terminal) for a person to settle. Only for clusters whose API server supports it; the plan decides.
 */
public final class ServerSideApply {

    public static final String FIELD_MANAGER = "windlass";

    public ActionResult apply(KubernetesClient client, Action action) { return attempt(client, action).result(); }

    public Attempt attempt(KubernetesClient client, Action action) {
        return Attempt.run(action, () -> write(client, action));
    }

    private ActionResult write(KubernetesClient client, Action action) {
        if (action.operation() == Operation.Delete) return Deletion.delete(client, action);
        if (action.desired().implicit()) return ImplicitObject.ensure(client, action);
        // The marks are sent too: observation finds objects by label whichever way they were applied, and the
        // last-applied annotation keeps a later switch to client-side apply able to remove fields.
        PreparedObject prepared = PreparedObject.of(action);
        Target target = new Target(client, action.desired().apiVersion(), action.object());
        Optional<String> before = target.get().map(ServerSideApply::resourceVersion);
        Map<String, Object> after = target.serverSideApply(prepared.body(), FIELD_MANAGER);
        if (before.isEmpty()) return ActionResult.ok(action, Outcome.Created, "created (server-side apply)");
        // An apply that changes nothing does not bump the resource version.
        return Objects.equals(before.get(), resourceVersion(after))
                ? ActionResult.ok(action, Outcome.Unchanged, "up to date")
                : ActionResult.ok(action, Outcome.Configured, "applied (server-side apply)");
    }

    @SuppressWarnings("unchecked")
    private static String resourceVersion(Map<String, Object> object) {
        return object.get("metadata") instanceof Map<?, ?> m ? String.valueOf(((Map<String, Object>) m).get("resourceVersion")) : "";
    }
}
