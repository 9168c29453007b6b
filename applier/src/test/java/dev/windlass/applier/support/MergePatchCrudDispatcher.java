package dev.windlass.applier.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonDiff;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The CRUD mock server with JSON merge patches applied as RFC 7386 says. The stock mock merges with Jackson's
 * updating reader, which appends to lists instead of replacing them: patching a container image would leave
 * the old container in place. Here the merge is computed properly and handed on as an equivalent JSON patch.
 */
public final class MergePatchCrudDispatcher extends KubernetesCrudDispatcher {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override public MockResponse handlePatch(RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        var current = type != null && type.contains("merge-patch") ? findResource(getKey(request.getPath())) : null;
        if (current == null) return super.handlePatch(request);
        try {
            JsonNode before = JSON.readTree(current.getValue());
            JsonNode after = merge(before.deepCopy(), JSON.readTree(request.getBody().readUtf8()));
            byte[] operations = JSON.writeValueAsBytes(JsonDiff.asJson(before, after));
            var headers = request.getHeaders().newBuilder().set("Content-Type", "application/json-patch+json").build();
            return super.handlePatch(new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(),
                    headers, new Buffer(operations)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** RFC 7386, section 2. */
    static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) return patch;
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : JSON.createObjectNode();
        patch.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) result.remove(e.getKey());
            else result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue()));
        });
        return result;
    }
}
