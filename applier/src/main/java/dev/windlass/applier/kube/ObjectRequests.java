package dev.windlass.applier.kube;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.windlass.policy.model.ObjectRef;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.MalformedURLException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * Requests about one object, sent through the client library's own HTTP client (its authentication, retries, timeouts
 * and connection pool) with a body already written as JSON, and answers read as plain JSON trees, or not at all.
 *
 * <p>The library's typed operations turn each object into its typed model, serialise that, and parse every answer back
 * into the model: about 60% of the applier's CPU in a first sync (docs/performance.md). The URL of a kind
 * is worked out once per client by the library itself (its known kinds, or discovery for the rest) and kept.
 * Failures are the library's own {@link KubernetesClientException}s, built by the library from the server's Status, so
 * callers tell them apart as before ({@link Failures}).
 */
final class ObjectRequests {

    static final String JSON = "application/json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String APPLY_PATCH = "application/apply-patch+yaml";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {};

    /** Per client: where each kind's objects live, {@code apiVersion kind} to its collection. */
    private static final Map<KubernetesClient, Map<String, Collection>> COLLECTIONS =
            Collections.synchronizedMap(new WeakHashMap<>());

    private ObjectRequests() {}

    /**
     * Where a kind's objects live on one server: {@code root} is {@code https://host/apis/apps/v1}, {@code plural}
     * {@code deployments}.
     */
    private record Collection(String root, String plural, boolean namespaced) {
        String url(ObjectRef ref) {
            String scope = namespaced && ref.namespaced() ? "/namespaces/" + ref.namespace() : "";
            return root + scope + "/" + plural;
        }
    }

    /** The URL of the kind's collection the object is in, e.g. {@code .../namespaces/demo/configmaps}. */
    static String collectionUrl(KubernetesClient client, String apiVersion, ObjectRef ref,
                                java.util.function.Supplier<OperationSupport> operation) {
        Map<String, Collection> known = COLLECTIONS.computeIfAbsent(client, c -> new ConcurrentHashMap<>());
        String key = apiVersion + " " + ref.kind();
        Collection collection = known.get(key);
        if (collection == null) {
            // Asked of the library only once it is known the kind resolves (a failed discovery is not kept).
            collection = collectionOf(operation.get());
            known.put(key, collection);
        }
        return collection.url(ref);
    }

    /** The object's own URL. */
    static String objectUrl(KubernetesClient client, String apiVersion, ObjectRef ref,
                            java.util.function.Supplier<OperationSupport> operation) {
        // Names are path segments (the parser refuses a slash), sent as the library sends them.
        return collectionUrl(client, apiVersion, ref, operation) + "/" + ref.name();
    }

    private static Collection collectionOf(OperationSupport anyNamespace) {
        try {
            String url = anyNamespace.getNamespacedUrl().toString();
            String plural = anyNamespace.getResourceT();
            String suffix = "/" + plural;
            if (!url.endsWith(suffix)) throw new IllegalStateException("unexpected collection URL " + url);
            return new Collection(url.substring(0, url.length() - suffix.length()), plural, anyNamespace.isResourceNamespaced());
        } catch (MalformedURLException e) {
            throw new KubernetesClientException("cannot build the URL of " + anyNamespace.getResourceT(), e);
        }
    }

    /** Sends the request; a non-2xx answer throws the library's exception for it. Returns the answer's body. */
    static HttpResponse<byte[]> send(KubernetesClient client, HttpRequest request) {
        HttpResponse<byte[]> response;
        try {
            response = client.getHttpClient().sendAsync(request, byte[].class).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException io = new InterruptedIOException();
            io.initCause(e);
            throw OperationSupport.requestException(request, io);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof KubernetesClientException k) throw k.copyAsCause();
            if (cause instanceof IOException io) throw OperationSupport.requestException(request, new IOException(io.getMessage(), io));
            throw new KubernetesClientException(cause.getMessage(), cause);
        }
        if (!response.isSuccessful()) {
            throw OperationSupport.requestFailure(request, OperationSupport.createStatus(response, client.getKubernetesSerialization()));
        }
        return response;
    }

    /** GETs the object; empty when the server answers 404. */
    static Optional<Map<String, Object>> get(KubernetesClient client, String url) {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url).build();
        try {
            return Optional.of(tree(send(client, request)));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) return Optional.empty();
            throw e;
        }
    }

    static HttpResponse<byte[]> write(KubernetesClient client, String method, String url, String contentType, String body) {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(url).method(method, contentType, body).build();
        return send(client, request);
    }

    static Map<String, Object> tree(HttpResponse<byte[]> response) {
        byte[] body = response.body();
        try {
            return MAPPER.readValue(body, OBJECT);
        } catch (IOException e) {
            throw new KubernetesClientException("the server's answer is not a JSON object: " + e.getMessage(), e);
        }
    }

    /** Query parameters, each value encoded. */
    static String query(String url, Map<String, String> parameters) {
        if (parameters.isEmpty()) return url;
        StringBuilder out = new StringBuilder(url);
        char sep = url.indexOf('?') < 0 ? '?' : '&';
        for (var e : parameters.entrySet()) {
            out.append(sep).append(e.getKey()).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            sep = '&';
        }
        return out.toString();
    }
}
