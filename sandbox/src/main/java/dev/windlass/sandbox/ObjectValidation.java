package dev.windlass.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.windlass.policy.kube.NameFormats;
import dev.windlass.policy.kube.NameRule;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Refuses writes that a real API server (v1.34) refuses for their metadata, with the answer it gives, before they
 * reach the CRUD store, which would take them. Checked in the order the API server checks them:
 * <ol>
 *   <li>a namespace in the body that differs from the one in the path: 400 BadRequest;</li>
 *   <li>on updates, a name in the body that is missing or differs from the one in the path: 400 BadRequest;</li>
 *   <li>on creates, a namespace in the path that is not a DNS-1123 label: such a namespace cannot exist, so the API
 *       server's namespace admission answers 404 {@code namespaces "UPPER" not found};</li>
 *   <li>on creates, {@code metadata.name} and {@code generateName} in the format of the kind ({@link NameRule}), and
 *       a CronJob's name of at most 52 characters; label keys and values, annotation keys, and the size of all
 *       annotations together: 422 Invalid, one cause per problem.</li>
 * </ol>
 * On an update a real server answers 404 for an object that does not exist and 409 for a stale resourceVersion before
 * it validates, so an update is refused as invalid only once the stored object is read and found (read only then).
 * Names are not checked on updates: a name cannot change, and one the sandbox refused was never stored.
 *
 * <p>Checks POSTs to a collection and PUTs of an object; JSON merge patches are checked by {@link MergePatch} on the
 * object as the patch leaves it, through {@link #refusalOfPatched(ApiPath, JsonNode, String)}. JSON patches (RFC
 * 6902, what fabric8's {@code edit} sends) and subresources (status, scale, eviction, ...) are not checked; neither is
 * anything outside {@code metadata}, nor owner references and finalizers.
 *
 * <p>Runs on the server's event loop: it parses the body it is given and reads the store only to refuse an update,
 * never blocking.
 */
final class ObjectValidation {

    /** The most bytes all annotation keys and values of one object may take together. */
    static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;
    /** The longest name a CronJob may be created with. */

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Dispatcher store;

    ObjectValidation(Dispatcher store) {
        this.store = store;
    }

    /**
     * The answer a real API server gives instead of storing this write, or empty when the request may go on to the
     * store. JSON merge patches are left to {@link MergePatch}.
     */
    Optional<MockResponse> refusal(RecordedRequest request, String path) {
        String method = request.getMethod();
        Optional<ApiPath> parsed = ApiPath.parse(path);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        ApiPath api = parsed.get();
        if ("POST".equals(method) && api.isCollection()) {
            return refusalOfCreate(api, objectIn(request));
        }
        if ("PUT".equals(method) && api.isObject()) {
            JsonNode object = objectIn(request);
            return object == null ? Optional.empty()
                    : refusalOfUpdate(api, object, () -> storedVersion(path, request));
        }
        return Optional.empty();
    }

    /**
     * The answer to a patch of an object, given the object as the patch leaves it and the resourceVersion of the
     * stored object it was applied to; empty when the result may be stored.
     */
    Optional<MockResponse> refusalOfPatched(ApiPath api, JsonNode patched, String storedVersion) {
        return api.isObject() ? refusalOfUpdate(api, patched, () -> storedVersion) : Optional.empty();
    }

    private Optional<MockResponse> refusalOfCreate(ApiPath api, JsonNode object) {
        if (object == null || !object.path("metadata").isObject() || text(object.get("kind")).isEmpty()) {
            return Optional.empty(); // the store refuses what has no kind or metadata
        }
        JsonNode metadata = object.get("metadata");
        if (api.namespace() != null) {
            String namespace = text(metadata.get("namespace"));
            if (!namespace.isEmpty() && !namespace.equals(api.namespace())) {
                return Optional.of(Refusals.badRequest(
                        "the namespace of the provided object does not match the namespace sent on the request"));
            }
            if (!NameFormats.dns1123Label(api.namespace()).isEmpty()) {
                return Optional.of(Refusals.notFound("", "namespaces", api.namespace()));
            }
        }
        String kind = text(object.get("kind"));
        String name = text(metadata.get("name"));
        String generateName = text(metadata.get("generateName"));
        NameRule rule = NameRule.of(api.group(), kind);
        List<FieldError> errors = new ArrayList<>();
        for (String problem : generateName.isEmpty() ? List.<String>of() : rule.check(generateName, true)) {
            errors.add(FieldError.invalid("metadata.generateName", generateName, problem));
        }
        if (name.isEmpty() && generateName.isEmpty()) {
            errors.add(FieldError.required("metadata.name", "name or generateName is required"));
        } else if (!name.isEmpty()) {
            // With only a generateName the store makes the name up later. A real server makes it up first and checks
            // it too, so its answer to a bad generateName also has a metadata.name cause (with a random suffix).
            for (String problem : rule.check(name, false)) {
                errors.add(FieldError.invalid("metadata.name", name, problem));
            }
        }
        addLabelErrors(metadata, errors);
        addAnnotationErrors(metadata, errors);
        // A CronJob's Jobs are named after it with 11 more characters, and a Job's name must fit in a label value.
        if (api.group().equals("batch") && kind.equals("CronJob") && NameFormats.utf8Length(name) > NameRule.CRON_JOB_NAME_MAX) {
            errors.add(FieldError.invalid("metadata.name", name, NameFormats.maxLength(NameRule.CRON_JOB_NAME_MAX)));
        }
        return errors.isEmpty() ? Optional.empty() : Optional.of(Refusals.invalid(api.group(), kind, name, errors));
    }

    /**
     * @param storedVersion the resourceVersion of the stored object, null when there is none; asked only when the
     *                      update would be refused as invalid
     */
    private Optional<MockResponse> refusalOfUpdate(ApiPath api, JsonNode object, Supplier<String> storedVersion) {
        if (!object.path("metadata").isObject() || text(object.get("kind")).isEmpty()) {
            return Optional.empty(); // the store refuses what has no kind or metadata
        }
        JsonNode metadata = object.get("metadata");
        String namespace = text(metadata.get("namespace"));
        if (api.namespace() != null && !namespace.isEmpty() && !namespace.equals(api.namespace())) {
            return Optional.of(Refusals.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request"));
        }
        String name = text(metadata.get("name"));
        if (name.isEmpty()) {
            return Optional.of(Refusals.badRequest("the name of the object (" + api.name()
                    + " based on URL) was undeterminable: name must be provided"));
        }
        if (!name.equals(api.name())) {
            return Optional.of(Refusals.badRequest(
                    "the name of the object (" + name + ") does not match the name on the URL (" + api.name() + ")"));
        }
        List<FieldError> errors = new ArrayList<>();
        addLabelErrors(metadata, errors);
        addAnnotationErrors(metadata, errors);
        if (errors.isEmpty()) {
            return Optional.empty();
        }
        String stored = storedVersion.get();
        String version = text(metadata.get("resourceVersion"));
        if (stored == null || (!version.isEmpty() && !version.equals(stored))) {
            return Optional.empty(); // the store answers 404 or 409 first, as a real server does
        }
        return Optional.of(Refusals.invalid(api.group(), text(object.get("kind")), name, errors));
    }

    private static void addLabelErrors(JsonNode metadata, List<FieldError> errors) {
        JsonNode labels = metadata.get("labels");
        if (labels == null || !labels.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> label : labels.properties()) {
            for (String problem : NameFormats.qualifiedName(label.getKey())) {
                errors.add(FieldError.invalid("metadata.labels", label.getKey(), problem));
            }
            String value = text(label.getValue());
            for (String problem : NameFormats.labelValue(value)) {
                errors.add(FieldError.invalid("metadata.labels", value, problem));
            }
        }
    }

    private static void addAnnotationErrors(JsonNode metadata, List<FieldError> errors) {
        JsonNode annotations = metadata.get("annotations");
        if (annotations == null || !annotations.isObject()) {
            return;
        }
        long bytes = 0;
        for (Map.Entry<String, JsonNode> annotation : annotations.properties()) {
            String key = annotation.getKey();
            // Annotation keys are label keys in which case does not matter.
            for (String problem : NameFormats.qualifiedName(key.toLowerCase(Locale.ROOT))) {
                errors.add(FieldError.invalid("metadata.annotations", key, problem));
            }
            bytes += NameFormats.utf8Length(key) + NameFormats.utf8Length(text(annotation.getValue()));
        }
        if (bytes > ANNOTATIONS_MAX_BYTES) {
            errors.add(FieldError.tooLong("metadata.annotations", ANNOTATIONS_MAX_BYTES));
        }
    }

    /** The resourceVersion of the object the store holds at {@code path}, or null when it holds none. */
    private String storedVersion(String path, RecordedRequest original) {
        RecordedRequest get = new RecordedRequest(original.getHttpVersion(), HttpMethod.GET, path,
                original.getHeaders().newBuilder().set("Content-Type", "application/json").build(), new Buffer());
        MockResponse response = store.dispatch(get);
        JsonNode stored = response.code() == 200 ? json(response.getBody()) : null;
        return stored == null ? null : text(stored.path("metadata").get("resourceVersion"));
    }

    private static JsonNode objectIn(RecordedRequest request) {
        JsonNode body = json(request.getBody());
        return body != null && body.isObject() ? body : null;
    }

    /** A body as JSON, read without draining it (the store reads a request's body after), or null if it is not JSON. */
    private static JsonNode json(Buffer body) {
        if (body == null || body.size() == 0) {
            return null;
        }
        try {
            return JSON.readTree(body.getBytes());
        } catch (IOException e) {
            return null;
        }
    }

    /** A JSON value as the string a Go client would have sent: null is empty, other scalars as written. */
    private static String text(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        return value.isTextual() ? value.textValue() : value.asText();
    }
}
