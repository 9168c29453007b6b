package dev.windlass.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A cluster's store as its own components see it: calls go straight to the CRUD store, in the caller's thread,
 * without the network. So they are not counted in the {@link RequestLog}, are not slowed by injected latency, and
 * ticks of the simulator stay synchronous and deterministic. Watches still fire, since the store emits events itself.
 */
public final class LocalApi {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final Headers HEADERS = Headers.builder().add("Content-Type", "application/json").build();

    private final Dispatcher store;

    LocalApi(Dispatcher store) {
        this.store = store;
    }

    /** Every object of the type, in all namespaces. */
    public <T extends HasMetadata> List<T> list(Class<T> type) {
        MockResponse response = call(HttpMethod.GET, collection(type, null), null);
        expect(response, 200, "list " + HasMetadata.getPlural(type));
        List<T> items = new ArrayList<>();
        for (JsonNode item : JSON.unmarshal(body(response), JsonNode.class).path("items")) {
            items.add(JSON.convertValue(item, type));
        }
        return items;
    }

    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> T create(T object) {
        Class<T> type = (Class<T>) object.getClass();
        MockResponse response = call(HttpMethod.POST, collection(type, namespaceOf(object)), JSON.asJson(object));
        expect(response, 201, "create " + object.getMetadata().getName());
        return JSON.unmarshal(body(response), type);
    }

    /**
     * Replaces the status through the /status subresource; the store then keeps spec and metadata.generation as
     * they are. Empty when the object is gone.
     */
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> Optional<T> replaceStatus(T object) {
        Class<T> type = (Class<T>) object.getClass();
        String path = collection(type, namespaceOf(object)) + "/" + object.getMetadata().getName() + "/status";
        MockResponse response = call(HttpMethod.PUT, path, JSON.asJson(object));
        if (response.code() == 404) {
            return Optional.empty();
        }
        expect(response, 200, "update status of " + object.getMetadata().getName());
        return Optional.of(JSON.unmarshal(body(response), type));
    }

    private MockResponse call(HttpMethod method, String path, String body) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        return store.dispatch(new RecordedRequest("HTTP/1.1", method, path, HEADERS, new Buffer(bytes)));
    }

    private static String collection(Class<?> type, String namespace) {
        String group = HasMetadata.getGroup(type);
        String version = HasMetadata.getVersion(type);
        String base = group == null || group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        String scope = namespace == null ? "" : "/namespaces/" + namespace;
        return base + scope + "/" + HasMetadata.getPlural(type);
    }

    private static String namespaceOf(HasMetadata object) {
        if (!(object instanceof Namespaced)) {
            return null;
        }
        String ns = object.getMetadata().getNamespace();
        return ns == null ? "default" : ns;
    }

    private static String body(MockResponse response) {
        return response.getBody() == null ? "" : new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static void expect(MockResponse response, int code, String what) {
        if (response.code() != code) {
            throw new IllegalStateException(what + ": HTTP " + response.code() + " " + body(response));
        }
    }
}
