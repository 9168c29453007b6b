package dev.windlass.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * JSON merge patch (RFC 7386) done right, in front of the CRUD store. The store merges with Jackson's updating
 * reader, which appends to lists instead of replacing them and stores {@code null} instead of removing the key:
 * patching a container image would add a second container. So the patch is applied here to the stored object and
 * the result written back with PUT, which keeps the store's rules for status, generation and watch events. The PUT
 * carries the resourceVersion read, so a write that slips in between is retried rather than lost. The merged object
 * is checked by {@link ObjectValidation} before it is written, as a real API server checks a patched object.
 */
final class MergePatch {

    static final String MEDIA_TYPE = "application/merge-patch+json";

    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final int ATTEMPTS = 3;
    private static final String NOT_AN_OBJECT = """
            {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
            "message":"a JSON merge patch must be a JSON object","reason":"BadRequest","code":400}""";

    private final Dispatcher store;
    private final ObjectValidation validation;

    MergePatch(Dispatcher store, ObjectValidation validation) {
        this.store = store;
        this.validation = validation;
    }

    static boolean isMergePatch(RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        return "PATCH".equals(request.getMethod()) && type != null && type.startsWith(MEDIA_TYPE);
    }

    MockResponse apply(RecordedRequest request, String path) {
        JsonNode patch = parse(request.getUtf8Body());
        if (patch == null || !patch.isObject()) {
            return new MockResponse().setResponseCode(400).setHeader("Content-Type", "application/json")
                    .setBody(NOT_AN_OBJECT);
        }
        // A resourceVersion in the patch asks for optimistic locking: then a conflict goes back to the client.
        boolean locked = patch.path("metadata").hasNonNull("resourceVersion");
        String objectPath = path.endsWith("/status") ? path.substring(0, path.length() - "/status".length()) : path;
        Optional<ApiPath> api = ApiPath.parse(path);
        MockResponse response = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            MockResponse current = store.dispatch(request(HttpMethod.GET, objectPath, request, null));
            if (current.code() != 200) {
                return current;
            }
            JsonNode stored = parse(body(current));
            String storedVersion = stored == null ? "" : stored.path("metadata").path("resourceVersion").asText("");
            JsonNode merged = merge(stored, patch);
            Optional<MockResponse> refused = api.flatMap(a -> validation.refusalOfPatched(a, merged, storedVersion));
            if (refused.isPresent()) {
                return refused.get();
            }
            response = store.dispatch(request(HttpMethod.PUT, path, request, JSON.asJson(merged)));
            if (response.code() != 409 || locked) {
                return response;
            }
        }
        return response;
    }

    /** RFC 7386: objects merge key by key, null removes a key, anything else replaces. */
    static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject()
                ? (ObjectNode) target
                : JsonNodeFactory.instance.objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), merge(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.unmarshal(json, JsonNode.class);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static RecordedRequest request(HttpMethod method, String path, RecordedRequest original, String body) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        return new RecordedRequest(original.getHttpVersion(), method, path,
                original.getHeaders().newBuilder().set("Content-Type", "application/json").build(), new Buffer(bytes));
    }

    private static String body(MockResponse response) {
        return new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    }
}
