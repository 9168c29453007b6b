package dev.windlass.policy.observe;

import java.util.List;
import java.util.Map;

/**
 * An object a remediation policy watches (a Node, or any kind with {@code status.conditions}), as observed at the
 * start of a pass, whoever manages it.
 *
 * @param createdAt   its creationTimestamp (RFC 3339), or "" when the server did not say
 * @param owners      "Kind/name" of each owner reference: an owner that replaces what is deleted
 * @param unschedulable for Nodes, whether it is cordoned
 */
public record ObservedTarget(KindRef kind, String namespace, String name, Map<String, String> labels, Map<String, String> annotations,
                             List<Condition> conditions, String createdAt, List<String> owners, boolean unschedulable) {

    public ObservedTarget {
        namespace = namespace == null ? "" : namespace;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        createdAt = createdAt == null ? "" : createdAt;
        owners = owners == null ? List.of() : List.copyOf(owners);
    }

    /** One of its {@code status.conditions}; {@code lastTransitionTime} is "" when the object does not say. */
    public record Condition(String type, String status, String lastTransitionTime, String reason, String message) {}

    public Condition condition(String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst().orElse(null);
    }

    /** {@code Node eu-1-cp-2} or {@code Machine mgmt/cp-2}. */
    public String id() { return kind.kind() + " " + (namespace.isEmpty() ? name : namespace + "/" + name); }
}
