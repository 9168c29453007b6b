package dev.windlass.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * JSON merge patch (RFC 7386) done right, in front of the CRUD store. The store merges with Jackson's updating
 * reader, which appends to lists instead of replacing them and stores {@code null} instead of removing the key:
 * patching a container image would add a second container. So the patch is applied here to the stored object, by
 * Jakarta JSON-P's {@link Json#createMergePatch} (the Eclipse Parsson implementation), and
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
        JsonValue patch = parse(request.getUtf8Body());
        if (!(patch instanceof JsonObject patchObject)) {
            return new MockResponse().setResponseCode(400).setHeader("Content-Type", "application/json")
                    .setBody(NOT_AN_OBJECT);
        }
        // A resourceVersion in the patch asks for optimistic locking: then a conflict goes back to the client.
        boolean locked = patchObject.get("metadata") instanceof JsonObject metadata
                && metadata.containsKey("resourceVersion") && metadata.get("resourceVersion") != JsonValue.NULL;
        String objectPath = path.endsWith("/status") ? path.substring(0, path.length() - "/status".length()) : path;
        Optional<ApiPath> api = ApiPath.parse(path);
        MockResponse response = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            MockResponse current = store.dispatch(request(HttpMethod.GET, objectPath, request, null));
            if (current.code() != 200) {
                return current;
            }
            JsonValue stored = parse(body(current));
            // RFC 7386: objects merge key by key, null removes a key, anything else (lists too) replaces.
            String merged = Json.createMergePatch(patch).apply(stored == null ? JsonValue.EMPTY_JSON_OBJECT : stored).toString();
            JsonNode mergedNode = JSON.unmarshal(merged, JsonNode.class);
            String storedVersion = stored instanceof JsonObject o && o.get("metadata") instanceof JsonObject m
                    ? m.getString("resourceVersion", "") : "";
            Optional<MockResponse> refused = api.flatMap(a -> validation.refusalOfPatched(a, mergedNode, storedVersion));
            if (refused.isPresent()) {
                return refused.get();
            }
            response = store.dispatch(request(HttpMethod.PUT, path, request, merged));
            if (response.code() != 409 || locked) {
                return response;
            }
        }
        return response;
    }

    /** The JSON in {@code json}, or null when it is not JSON (a parsing error is a {@link JsonException}). */
    private static JsonValue parse(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        } catch (JsonException e) {
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
