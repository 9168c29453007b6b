package dev.windlass.applier.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonDiff;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;

/**
 * The CRUD mock server with JSON merge patches applied as RFC 7386 says. The stock mock merges with Jackson's
 * updating reader, which appends to lists instead of replacing them: patching a container image would leave
 * the old container in place. Here the merge is computed by Jakarta JSON-P ({@link Json#createMergePatch}, as the
 * sandbox does) and handed on as an equivalent JSON patch.
 */
public final class MergePatchCrudDispatcher extends KubernetesCrudDispatcher {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override public MockResponse handlePatch(RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        var current = type != null && type.contains("merge-patch") ? findResource(getKey(request.getPath())) : null;
        if (current == null) return super.handlePatch(request);
        try {
            JsonNode before = JSON.readTree(current.getValue());
            JsonValue merged = Json.createMergePatch(read(request.getBody().readUtf8())).apply(read(current.getValue()));
            JsonNode after = JSON.readTree(merged.toString());
            byte[] operations = JSON.writeValueAsBytes(JsonDiff.asJson(before, after));
            var headers = request.getHeaders().newBuilder().set("Content-Type", "application/json-patch+json").build();
            return super.handlePatch(new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(),
                    headers, new Buffer(operations)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonValue read(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
