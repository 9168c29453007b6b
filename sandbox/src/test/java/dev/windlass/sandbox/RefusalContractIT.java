package dev.windlass.sandbox;

import dev.windlass.kubetest.KubeApiServer;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.URLUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sandbox refuses the writes a real API server refuses, and the same way. Each write below goes, through a fabric8
 * client, to a sandbox cluster and to a real kube-apiserver (kube-test's, v1.34); the two answers must agree on the
 * HTTP code and, for a refusal, on the Status reason, message and details (kind, group, name, and each cause's
 * field, reason and message). A write the real server takes must be taken by the sandbox too.
 *
 * <p>Causes are compared once each: for some kinds (ConfigMap, Secret, ...) a real server lists a cause twice on an
 * update, because two of its validations look at the same metadata; the sandbox lists it once. The Status message
 * lists each problem once on both.
 *
 * <p>The writes go through the client's own HTTP client, with the client's credentials, rather than its typed API:
 * the typed API refuses some of these (a namespace in the body other than the one operated on) before sending them.
 */
class RefusalContractIT {

    private static final String CONFIG_MAPS = "/api/v1/namespaces/demo/configmaps";
    private static final String SETTINGS = CONFIG_MAPS + "/settings";
    private static final String JSON = "application/json";
    private static final String MERGE_PATCH = "application/merge-patch+json";

    private static KubeApiServer realServer;
    private static KubernetesClient real;
    private static Sandbox sandbox;
    private static KubernetesClient simulated;

    @BeforeAll static void start() {
        realServer = KubeApiServer.start();
        real = realServer.newClient();
        sandbox = new Sandbox();
        simulated = sandbox.add("contract", 1, 1).newClient();
        for (KubernetesClient client : List.of(real, simulated)) {
            assertEquals(201, send(client, new Write("setup", "POST", "/api/v1/namespaces", JSON, """
                    {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"demo"}}""")).code());
            assertEquals(201, send(client, new Write("setup", "POST", CONFIG_MAPS, JSON,
                    configMap("settings", "\"labels\":{\"app\":\"web\"}"))).code());
        }
    }

    @AfterAll static void stop() {
        if (simulated != null) simulated.close();
        if (sandbox != null) sandbox.close();
        if (real != null) real.close();
        if (realServer != null) realServer.close();
    }

    /** One request: what a test names it, and what is sent. */
    record Write(String description, String method, String path, String contentType, String body) {
        @Override public String toString() {
            return description;
        }
    }

    /** What comes back, as far as the contract compares it: the code; for a refusal, its Status. */
    record Answer(int code, String reason, String message, String detailsKind, String detailsGroup, String detailsName,
                  List<String> causes) {
    }

    static Stream<Write> writes() {
        String cronJobSpec = """
                "spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never",\
                "containers":[{"name":"main","image":"busybox"}]}}}}}""";
        return Stream.of(
                // Taken by both: the sandbox must not refuse what a real server takes.
                create("a valid ConfigMap with a prefixed label key, an empty label value and a mixed-case annotation key",
                        CONFIG_MAPS, configMap("fine.name-1",
                                "\"labels\":{\"example.com/tier\":\"\"},\"annotations\":{\"Example.com/Owner\":\"team\"}")),
                create("a Role named with a colon (RBAC names are path segments)",
                        "/apis/rbac.authorization.k8s.io/v1/namespaces/demo/roles", """
                        {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"system:reader"}}"""),
                create("a CronJob whose name is 52 characters", "/apis/batch/v1/namespaces/demo/cronjobs", """
                        {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"%s"},%s}"""
                        .formatted("c".repeat(52), cronJobSpec)),
                create("annotations of exactly 256 KiB", CONFIG_MAPS,
                        configMap("big-enough", annotationsOfBytes(256 * 1024))),
                new Write("a PUT that adds a valid label", "PUT", SETTINGS, JSON,
                        configMap("settings", "\"labels\":{\"app\":\"web\",\"tier\":\"front\"}")),

                // Names in the format of their kind.
                create("a ConfigMap name with uppercase and '_'", CONFIG_MAPS, configMap("Bad_Name", null)),
                create("a ConfigMap name with '/'", CONFIG_MAPS, configMap("a/b", null)),
                create("a ConfigMap name of 254 characters", CONFIG_MAPS, configMap("n".repeat(254), null)),
                create("a ConfigMap with neither name nor generateName", CONFIG_MAPS, """
                        {"apiVersion":"v1","kind":"ConfigMap","metadata":{}}"""),
                create("a Deployment name with uppercase (group in the message)", "/apis/apps/v1/namespaces/demo/deployments", """
                        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"Web"},"spec":{\
                        "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},\
                        "spec":{"containers":[{"name":"main","image":"nginx"}]}}}}"""),
                create("a Service name starting with a digit (DNS-1035)", "/api/v1/namespaces/demo/services", """
                        {"apiVersion":"v1","kind":"Service","metadata":{"name":"1web"},"spec":{"ports":[{"port":80}]}}"""),
                create("a StatefulSet name with a dot (DNS-1123 label)", "/apis/apps/v1/namespaces/demo/statefulsets", """
                        {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db.v1"},"spec":{\
                        "selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},\
                        "spec":{"containers":[{"name":"main","image":"postgres"}]}}}}"""),
                create("a Role name with '/'", "/apis/rbac.authorization.k8s.io/v1/namespaces/demo/roles", """
                        {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"a/b"}}"""),
                create("a CronJob name of 53 characters", "/apis/batch/v1/namespaces/demo/cronjobs", """
                        {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"%s"},%s}"""
                        .formatted("c".repeat(53), cronJobSpec)),
                create("a Namespace name with uppercase", "/api/v1/namespaces", """
                        {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"Team_A"}}"""),

                // Namespaces and names that do not match the request.
                create("a namespace in the path that cannot exist", "/api/v1/namespaces/UPPER/configmaps",
                        configMap("settings", null)),
                create("a namespace in the body that differs from the path", CONFIG_MAPS, """
                        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"elsewhere","namespace":"other"}}"""),
                new Write("a PUT whose body names another object", "PUT", SETTINGS, JSON, configMap("other", null)),
                new Write("a PUT whose body has no name", "PUT", SETTINGS, JSON, """
                        {"apiVersion":"v1","kind":"ConfigMap","metadata":{}}"""),
                new Write("a PUT whose body is in another namespace", "PUT", SETTINGS, JSON, """
                        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"other"}}"""),
                new Write("a merge patch that renames the object", "PATCH", SETTINGS, MERGE_PATCH, """
                        {"metadata":{"name":"renamed"}}"""),

                // Labels and annotations, on create, update and merge patch.
                create("a label key with a space", CONFIG_MAPS, configMap("label-key", "\"labels\":{\"bad key\":\"x\"}")),
                create("a label key with an empty prefix", CONFIG_MAPS, configMap("label-prefix", "\"labels\":{\"/x\":\"y\"}")),
                create("a label key with an uppercase prefix", CONFIG_MAPS,
                        configMap("label-prefix-case", "\"labels\":{\"Example.com/x\":\"y\"}")),
                create("a label value of 64 characters", CONFIG_MAPS,
                        configMap("label-long", "\"labels\":{\"tier\":\"" + "v".repeat(64) + "\"}")),
                create("a label value starting with '-'", CONFIG_MAPS, configMap("label-dash", "\"labels\":{\"tier\":\"-edge\"}")),
                create("an annotation key with two '/'", CONFIG_MAPS,
                        configMap("annotation-key", "\"annotations\":{\"a/b/c\":\"x\"}")),
                create("annotations of 256 KiB and one byte", CONFIG_MAPS,
                        configMap("too-big", annotationsOfBytes(256 * 1024 + 1))),
                create("a bad name, label and annotation at once", CONFIG_MAPS,
                        configMap("Many_Problems", "\"labels\":{\"tier\":\"-edge\"},\"annotations\":{\"a/b/c\":\"x\"}")),
                new Write("a PUT that adds a bad label", "PUT", SETTINGS, JSON,
                        configMap("settings", "\"labels\":{\"app\":\"web\",\"tier\":\"-edge\"}")),
                new Write("a PUT with a bad label of an object that does not exist", "PUT", CONFIG_MAPS + "/ghost", JSON,
                        configMap("ghost", "\"labels\":{\"tier\":\"-edge\"}")),
                new Write("a merge patch that adds a bad label", "PATCH", SETTINGS, MERGE_PATCH, """
                        {"metadata":{"labels":{"tier":"-edge"}}}"""),
                new Write("a merge patch that makes the annotations too big", "PATCH", SETTINGS, MERGE_PATCH,
                        "{\"metadata\":{" + annotationsOfBytes(256 * 1024 + 1) + "}}"),
                new Write("a merge patch of an object that does not exist", "PATCH", CONFIG_MAPS + "/ghost", MERGE_PATCH, """
                        {"metadata":{"labels":{"tier":"front"}}}"""),

                // What a missing object is called.
                get("a GET of a ConfigMap that does not exist", CONFIG_MAPS + "/ghost"),
                get("a GET of a Deployment that does not exist", "/apis/apps/v1/namespaces/demo/deployments/ghost"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void theSandboxAnswersAsARealServerDoes(Write write) {
        Answer expected = answer(send(real, write));
        Answer actual = answer(send(simulated, write));
        assertEquals(expected, actual, "the sandbox's answer to " + write + " (real server's first)");
    }

    private static Write create(String description, String path, String body) {
        return new Write(description, "POST", path, JSON, body);
    }

    private static Write get(String description, String path) {
        return new Write(description, "GET", path, null, null);
    }

    /** A ConfigMap named {@code name}, with the given metadata fields (JSON members, no braces) if not null. */
    private static String configMap(String name, String metadata) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\""
                + (metadata == null ? "" : "," + metadata) + "}}";
    }

    /** An {@code annotations} member whose keys and values take {@code bytes} bytes together. */
    private static String annotationsOfBytes(int bytes) {
        String key = "example.com/blob";
        return "\"annotations\":{\"" + key + "\":\"" + "x".repeat(bytes - key.length()) + "\"}";
    }

    private static HttpResponse<String> send(KubernetesClient client, Write write) {
        HttpClient http = client.getHttpClient();
        HttpRequest.Builder request = http.newHttpRequestBuilder()
                .uri(URLUtils.join(client.getMasterUrl().toString(), write.path().substring(1)))
                .header("Accept", JSON);
        if (write.body() != null) {
            request.method(write.method(), write.contentType(), write.body());
        }
        try {
            return http.sendAsync(request.build(), String.class).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(write + " got no answer from " + client.getMasterUrl(), e);
        }
    }

    private static Answer answer(HttpResponse<String> response) {
        if (response.isSuccessful()) {
            return new Answer(response.code(), null, null, null, null, null, List.of());
        }
        Status status = real.getKubernetesSerialization().unmarshal(response.body(), Status.class);
        assertEquals("Status", status.getKind(), () -> "a Status, not: " + response.body());
        assertEquals(response.code(), status.getCode(), "the Status's code is the HTTP code");
        StatusDetails details = status.getDetails() == null ? new StatusDetails() : status.getDetails();
        List<String> causes = details.getCauses() == null ? List.of() : details.getCauses().stream()
                .map(RefusalContractIT::cause).distinct().toList();
        assertTrue(status.getMessage() != null && !status.getMessage().isEmpty(), "a message");
        return new Answer(response.code(), status.getReason(), status.getMessage(), details.getKind(),
                details.getGroup(), details.getName(), causes);
    }

    private static String cause(StatusCause cause) {
        return cause.getField() + " | " + cause.getReason() + " | " + cause.getMessage();
    }
}
