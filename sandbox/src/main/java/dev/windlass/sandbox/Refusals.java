package dev.windlass.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The answers a real API server gives when it refuses a write: a {@code Status} object with the HTTP code, reason,
 * message and details apimachinery's {@code pkg/api/errors} puts in it, keys in the same order. Clients read them
 * as they read a real server's (fabric8 raises a {@code KubernetesClientException} whose {@code getStatus()} is this).
 */
final class Refusals {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Refusals() {
    }

    /**
     * 422 Invalid: {@code <Kind>[.<group>] "<name>" is invalid: <errors>}, one cause per error. The message lists each
     * distinct error once, in brackets when there are several; the causes list them all.
     */
    static MockResponse invalid(String group, String kind, String name, List<FieldError> errors) {
        Set<String> messages = new LinkedHashSet<>();
        errors.forEach(e -> messages.add(e.message()));
        String listed = messages.size() == 1 ? messages.iterator().next() : "[" + String.join(", ", messages) + "]";
        String qualifiedKind = group.isEmpty() ? kind : kind + "." + group;
        ObjectNode details = JSON.createObjectNode();
        putIfNotEmpty(details, "name", name);
        putIfNotEmpty(details, "group", group);
        details.put("kind", kind);
        ArrayNode causes = details.putArray("causes");
        for (FieldError error : errors) {
            causes.addObject().put("reason", error.type().reason()).put("message", error.body()).put("field", error.field());
        }
        return status(422, "Invalid", qualifiedKind + " " + FieldError.quoted(name) + " is invalid: " + listed, details);
    }

    /** 400 BadRequest, a message and no details: what the API server says of a request it cannot take as it is. */
    static MockResponse badRequest(String message) {
        return status(400, "BadRequest", message, null);
    }

    /** 404 NotFound of one object, as {@code namespaces "UPPER" not found}. */
    static MockResponse notFound(String group, String resource, String name) {
        ObjectNode details = JSON.createObjectNode();
        putIfNotEmpty(details, "name", name);
        putIfNotEmpty(details, "group", group);
        details.put("kind", resource);
        String qualifiedResource = group.isEmpty() ? resource : resource + "." + group;
        return status(404, "NotFound", qualifiedResource + " " + FieldError.quoted(name) + " not found", details);
    }

    private static MockResponse status(int code, String reason, String message, ObjectNode details) {
        ObjectNode status = JSON.createObjectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure");
        status.put("message", message);
        status.put("reason", reason);
        if (details != null) {
            status.set("details", details);
        }
        status.put("code", code);
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(status.toString());
    }

    private static void putIfNotEmpty(ObjectNode node, String key, String value) {
        if (value != null && !value.isEmpty()) {
            node.put(key, value);
        }
    }
}
