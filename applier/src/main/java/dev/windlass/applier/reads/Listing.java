package dev.windlass.applier.reads;

import dev.windlass.applier.kube.JsonTree;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** A query as the client library's operation, one LIST of it, and the shape every read returns objects in. */
final class Listing {
    private Listing() {}

    private static final Comparator<Map<String, Object>> BY_KEY = Comparator.comparing(Listing::key);

    static FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            operation(KubernetesClient client, Query query) {
        // The generic API serves built-in kinds from the client's own registry and custom ones through discovery.
        return scoped(client.genericKubernetesResources(query.apiVersion(), query.kind()), query);
    }

    /** {@code kind}, narrowed to the query's namespace and label. */
    static FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            scoped(MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> kind,
                    Query query) {
        FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> scoped =
                query.namespace() == null ? kind.inAnyNamespace() : kind.inNamespace(query.namespace());
        return query.label() == null ? scoped : scoped.withLabel(query.label(), query.labelValue());
    }

    /** One LIST, every item as a {@linkplain #body body}, in key order. */
    static List<Map<String, Object>> list(KubernetesClient client, Query query) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (GenericKubernetesResource item : operation(client, query).list().getItems()) {
            out.add(body(client.getKubernetesSerialization(), query, item));
        }
        out.sort(BY_KEY);
        return out;
    }

    /**
     * An object as a frozen JSON tree. Items of a LIST may come without apiVersion and kind; the kind asked for is the
     * truth. Of {@code metadata.managedFields} only what other field managers own outside status is kept: that is what
     * an application's ignoreDifferences may name ({@code managedFieldsManagers}); Windlass's own entries (it knows
     * what it applies) and every status entry (bulky, and never a field Git sets) are dropped.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> body(KubernetesSerialization json, Query query, GenericKubernetesResource item) {
        Map<String, Object> body = json.convertValue(item, Map.class);
        body.putIfAbsent("apiVersion", query.apiVersion());
        body.putIfAbsent("kind", query.kind());
        Map<String, Object> meta = JsonTree.childMap(body, "metadata");
        if (meta != null && meta.get("managedFields") instanceof List<?> entries) {
            List<Object> others = new ArrayList<>();
            for (Object e : entries) {
                if (e instanceof Map<?, ?> m && !OWN_MANAGER.equals(m.get("manager")) && !"status".equals(m.get("subresource"))) others.add(e);
            }
            if (others.isEmpty()) meta.remove("managedFields");
            else meta.put("managedFields", others);
        }
        return JsonTree.frozen(body);
    }

    /** The field manager Windlass applies as (ServerSideApply.FIELD_MANAGER, which this package cannot see). */
    private static final String OWN_MANAGER = "windlass";

    /** {@code namespace/name}, or {@code name} for a cluster-scoped object: the order LISTs come in. */
    static String key(Map<String, Object> body) {
        Map<String, Object> meta = JsonTree.childMap(body, "metadata");
        if (meta == null) return "";
        Object ns = meta.get("namespace");
        Object name = meta.get("name");
        return (ns == null || "".equals(ns) ? "" : ns + "/") + (name == null ? "" : name);
    }

    static String resourceVersion(Map<String, Object> body) {
        Map<String, Object> meta = JsonTree.childMap(body, "metadata");
        Object rv = meta == null ? null : meta.get("resourceVersion");
        return rv == null ? "" : rv.toString();
    }
}
