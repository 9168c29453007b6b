package dev.windlass.policy.observe;

import dev.windlass.policy.model.ObjectRef;
import java.util.Map;

/** One object as it is on a cluster, with its assessed health ({@code healthMessage} says why when not Healthy). */
public record LiveObject(ObjectRef ref, Map<String, Object> body, Health health, String healthMessage) {}
