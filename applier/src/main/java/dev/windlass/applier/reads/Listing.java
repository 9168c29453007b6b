package dev.windlass.applier.reads;

import dev.windlass.applier.kube.JsonTree;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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

    /**
     * Objects a LIST asks for per page. A page is read, converted and let go before the next is asked for, so what is
     * in flight stays at a page's worth whatever the fleet (a LIST of every Deployment of a large fleet, read as one
     * response, was several MiB of bytes and decoded objects alive at once, long enough to be promoted to the old
     * generation of the heap and held there until a full collection).
     */
    static final long PAGE = 100;

    /** One LIST, every item as a {@linkplain #body body}, in key order. */
    static List<Map<String, Object>> list(KubernetesClient client, Query query) { return list(client, query, item -> null); }

    /**
     * One LIST, page by page, every item as a {@linkplain #body body}, in key order; {@code held} gives the body
     * already held for an item at the same resource version (a watch's), taken instead of converting the item again.
     */
    static List<Map<String, Object>> list(KubernetesClient client, Query query, Function<GenericKubernetesResource, Map<String, Object>> held) {
        List<Map<String, Object>> out = new ArrayList<>();
        FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> operation =
                operation(client, query);
        String next = null;
        java.util.Set<String> tokens = new java.util.HashSet<>();
        do {
            GenericKubernetesResourceList page = operation.list(new ListOptionsBuilder().withLimit(PAGE).withContinue(next).build());
            for (GenericKubernetesResource item : page.getItems()) {
                Map<String, Object> same = held.apply(item);
                out.add(same != null ? same : body(client.getKubernetesSerialization(), query, item));
            }
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
            if (next != null && !next.isEmpty() && !tokens.add(next)) {
                // A server that hands out a continue token it gave before would be paged forever, the pass with it.
                throw new KubernetesClientException("LIST of " + query + " stopped: the server answered a page with a continue token it had already given");
            }
        } while (next != null && !next.isEmpty());
        out.sort(BY_KEY);
        return out;
    }

    /**
     * What a LIST of the objects' metadata only asks for: the API server then sends each object's metadata and nothing
     * else. A server that does not serve it answers with the whole objects, whose metadata is read the same way.
     */
    static final String METADATA_ONLY = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

    private static final com.fasterxml.jackson.core.JsonFactory JSON_FACTORY = new com.fasterxml.jackson.core.JsonFactory();

    /**
     * One LIST of the query's objects' metadata only, page by page: each object's {@linkplain #key key} and resource
     * version, all a watch's proof compares. A fraction of the bytes a whole LIST is, and of its reading.
     */
    static Map<String, String> versions(KubernetesClient client, Query query) {
        String collection;
        try {
            collection = ((io.fabric8.kubernetes.client.dsl.internal.BaseOperation<?, ?, ?>) operation(client, query)).getResourceUrl().toString();
        } catch (java.net.MalformedURLException e) {
            throw new KubernetesClientException("no URL for " + query + ": " + e.getMessage(), e);
        }
        io.fabric8.kubernetes.client.http.HttpClient http = client.getHttpClient();
        Map<String, String> out = new java.util.HashMap<>();
        String next = null;
        java.util.Set<String> tokens = new java.util.HashSet<>();
        do {
            StringBuilder url = new StringBuilder(collection).append("?limit=").append(PAGE);
            if (query.label() != null) url.append("&labelSelector=").append(encoded(query.label() + "=" + query.labelValue()));
            if (next != null) url.append("&continue=").append(encoded(next));
            io.fabric8.kubernetes.client.http.HttpRequest.Builder builder = http.newHttpRequestBuilder().uri(url.toString()).header("Accept", METADATA_ONLY);
            int timeout = client.getConfiguration().getRequestTimeout();
            if (timeout > 0) builder.timeout(timeout, java.util.concurrent.TimeUnit.MILLISECONDS);
            io.fabric8.kubernetes.client.http.HttpRequest request = builder.build();
            try {
                io.fabric8.kubernetes.client.http.HttpResponse<byte[]> response = http.sendAsync(request, byte[].class).get();
                if (response.code() != 200) throw new KubernetesClientException("LIST of " + query + " answered " + response.code(), response.code(), null);
                next = versionsPage(response.body(), out);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KubernetesClientException("LIST of " + query + " interrupted", e);
            } catch (java.util.concurrent.ExecutionException | java.io.IOException e) {
                throw new KubernetesClientException("LIST of " + query + ": " + e.getMessage(), e);
            }
            if (!next.isEmpty() && !tokens.add(next)) {
                throw new KubernetesClientException("LIST of " + query + " stopped: the server answered a page with a continue token it had already given");
            }
        } while (!next.isEmpty());
        return out;
    }

    /**
     * One page of a LIST, read as it streams past: each item's {@linkplain #key key} and resource version into
     * {@code out}, every other field skipped unread (an applied object's metadata is mostly its managed fields). Returns
     * the page's continue token, empty on the last page.
     */
    static String versionsPage(byte[] page, Map<String, String> out) throws java.io.IOException {
        String next = "";
        try (JsonParser p = JSON_FACTORY.createParser(page)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new java.io.IOException("the LIST's answer is not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("items") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) item(p, out);
                } else if (field.equals("metadata") && value == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        p.nextToken();
                        if (name.equals("continue")) next = p.getValueAsString("");
                        else p.skipChildren();
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return next;
    }

    /** One item of a page, its opening brace read: its metadata's namespace, name and resource version. */
    private static void item(JsonParser p, Map<String, String> out) throws java.io.IOException {
        String ns = "", name = "", version = "";
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            if (p.nextToken() == JsonToken.START_OBJECT && field.equals("metadata")) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String m = p.currentName();
                    p.nextToken();
                    switch (m) {
                        case "namespace" -> ns = p.getValueAsString("");
                        case "name" -> name = p.getValueAsString("");
                        case "resourceVersion" -> version = p.getValueAsString("");
                        default -> p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        out.put((ns.isEmpty() ? "" : ns + "/") + name, version);
    }

    private static String encoded(String value) { return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8); }

    /**
     * An object as a frozen JSON tree. Items of a LIST may come without apiVersion and kind; the kind asked for is the
     * truth. Of {@code metadata.managedFields} only what other field managers own outside status is kept: that is what
     * an application's ignoreDifferences may name ({@code managedFieldsManagers}); Windlass's own entries (it knows
     * what it applies) and every status entry (bulky, and never a field Git sets) are dropped.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> body(KubernetesSerialization json, Query query, GenericKubernetesResource item) {
        // Only the metadata is typed; every other field was read as plain maps, lists and scalars already, and is taken
        // as it is (one copy, by frozen) rather than written out and read again.
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", item.getApiVersion() != null ? item.getApiVersion() : query.apiVersion());
        body.put("kind", item.getKind() != null ? item.getKind() : query.kind());
        if (item.getMetadata() != null) body.put("metadata", json.convertValue(item.getMetadata(), Map.class));
        item.getAdditionalProperties().forEach((k, v) -> {
            if (v != null) body.put(k, v);
        });
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
