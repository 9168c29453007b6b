package dev.windlass.policy.model;

import java.util.List;

/**
 * One entry of an Application's {@code spec.ignoreDifferences}: fields of matching objects that another controller
 * owns (an autoscaler's {@code spec.replicas}, a webhook's injected fields). Windlass neither reports them as drift nor
 * resets them: when it updates such an object it sends the live value of each ignored field. An object it creates gets
 * Git's values.
 *
 * @param group                 API group of the objects ("" for the core group)
 * @param kind                  their kind
 * @param name                  only the object of this name; empty: any
 * @param namespace             only objects in this namespace; empty: any
 * @param jsonPointers          RFC 6901 pointers to the ignored fields, {@code /spec/replicas}
 * @param managedFieldsManagers every field these field managers own on the live object is ignored
 *                              ({@code kube-controller-manager} for what an autoscaler sets)
 */
public record IgnoreDifferences(String group, String kind, String name, String namespace, List<String> jsonPointers,
                                List<String> managedFieldsManagers) {

    public IgnoreDifferences {
        group = group == null ? "" : group;
        name = name == null ? "" : name;
        namespace = namespace == null ? "" : namespace;
        jsonPointers = List.copyOf(jsonPointers);
        managedFieldsManagers = List.copyOf(managedFieldsManagers);
    }

    public boolean matches(ObjectRef ref) {
        return group.equals(ref.group()) && kind.equals(ref.kind()) && (name.isEmpty() || name.equals(ref.name()))
                && (namespace.isEmpty() || namespace.equals(ref.namespace()));
    }
}
