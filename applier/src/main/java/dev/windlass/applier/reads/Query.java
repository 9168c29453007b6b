package dev.windlass.applier.reads;

import java.util.Objects;

/**
 * What one LIST asks a cluster for: every object of a kind, in all namespaces or in one, with or without one label.
 *
 * @param namespace  null for all namespaces
 * @param label      null for no label selector; otherwise objects must carry it with {@code labelValue}
 */
public record Query(String apiVersion, String kind, String namespace, String label, String labelValue) {

    public Query {
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(kind, "kind");
        if ((label == null) != (labelValue == null)) throw new IllegalArgumentException("label and labelValue go together");
    }

    /** Every object of the kind, in all namespaces. */
    public static Query of(String apiVersion, String kind) { return new Query(apiVersion, kind, null, null, null); }

    public Query inNamespace(String ns) { return new Query(apiVersion, kind, ns, label, labelValue); }

    public Query withLabel(String key, String value) { return new Query(apiVersion, kind, namespace, key, value); }

    @Override public String toString() {
        return kind + " (" + apiVersion + ")" + (label == null ? "" : " labelled " + label + "=" + labelValue)
                + (namespace == null ? "" : " in " + namespace);
    }
}
