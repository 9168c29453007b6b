package dev.windlass.policy.model;

/**
 * The identity of one Kubernetes object: API group, kind, namespace ("" when cluster-scoped) and
 * name. The version is not part of the identity, as on the API server.
 */
public record ObjectRef(String group, String kind, String namespace, String name) implements Comparable<ObjectRef> {

    public ObjectRef {
        group = group == null ? "" : group;
        namespace = namespace == null ? "" : namespace;
    }

    public static String groupOf(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    public boolean namespaced() { return !namespace.isEmpty(); }

    /** {@code Deployment web/frontend} or {@code Namespace web}; the group is shown when it is not core or apps. */
    @Override public String toString() {
        String k = group.isEmpty() || group.equals("apps") ? kind : kind + "." + group;
        return k + " " + (namespaced() ? namespace + "/" + name : name);
    }

    @Override public int compareTo(ObjectRef o) {
        int c = group.compareTo(o.group);
        if (c == 0) c = kind.compareTo(o.kind);
        if (c == 0) c = namespace.compareTo(o.namespace);
        return c != 0 ? c : name.compareTo(o.name);
    }
}
