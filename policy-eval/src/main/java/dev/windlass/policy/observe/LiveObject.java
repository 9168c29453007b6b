package dev.windlass.policy.observe;

import dev.windlass.policy.state.Health;
import dev.windlass.policy.model.ObjectRef;
import java.util.Map;

/**
 * One object as it is on a cluster, with its assessed health ({@code healthMessage} says why when not Healthy).
 *
 * @param serverDiff what the API server said applying Git's object would change, or null when it was not asked
 */
public record LiveObject(ObjectRef ref, Map<String, Object> body, Health health, String healthMessage, ServerDiff serverDiff) {

    public LiveObject(ObjectRef ref, Map<String, Object> body, Health health, String healthMessage) {
        this(ref, body, health, healthMessage, null);
    }

    public LiveObject withServerDiff(ServerDiff diff) { return new LiveObject(ref, body, health, healthMessage, diff); }
}
