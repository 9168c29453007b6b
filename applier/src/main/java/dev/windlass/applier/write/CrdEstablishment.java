package dev.windlass.applier.write;

import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.Target;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A CustomResourceDefinition is accepted at once but its kind is served only once the server has set its
 * {@code Established} condition; resources of that kind later in the same stage would fail until then.
 */
public final class CrdEstablishment {

    private static final String GROUP = "apiextensions.k8s.io";
    private static final Duration POLL = Duration.ofMillis(100);

    private CrdEstablishment() {}

    /** Whether {@code result} wrote a CRD, so the caller should wait for it before the next action. */
    public static boolean wrote(ActionResult result) {
        var action = result.action();
        return (action.operation() == Operation.Create || action.operation() == Operation.Update)
                && GROUP.equals(action.object().group()) && "CustomResourceDefinition".equals(action.object().kind())
                && (result.outcome() == Outcome.Created || result.outcome() == Outcome.Configured);
    }

    /**
     * Polls the CRD until it is established or {@code limit} passes; the result keeps its outcome (the CRD was
     * written either way) and says so in its message when the kind is not served yet.
     */
    public static ActionResult await(KubernetesClient client, ActionResult result, Duration limit) {
        var action = result.action();
        Target target = new Target(client, action.apiVersion(), action.object());
        long deadline = System.nanoTime() + limit.toNanos();
        String last = "no status yet";
        while (true) {
            Optional<Map<String, Object>> live = target.get();
            Optional<Map<String, Object>> condition = live.flatMap(CrdEstablishment::established);
            if (condition.isPresent() && "True".equals(condition.get().get("status"))) return result;
            if (condition.isPresent()) last = condition.get().get("reason") + ": " + condition.get().get("message");
            if (System.nanoTime() > deadline) {
                return new ActionResult(action, result.outcome(), result.message() + "; not established after "
                        + limit.toSeconds() + "s (" + last + "), so its kind may not be served yet", result.transientFailure());
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                // The cluster's deadline passed; the run is being ended and reports that itself.
                Thread.currentThread().interrupt();
                return result;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Optional<Map<String, Object>> established(Map<String, Object> crd) {
        Map<String, Object> status = JsonTree.childMap(crd, "status");
        if (status == null || !(status.get("conditions") instanceof List<?> conditions)) return Optional.empty();
        return conditions.stream().filter(Map.class::isInstance).map(c -> (Map<String, Object>) c)
                .filter(c -> "Established".equals(c.get("type"))).findFirst();
    }
}
