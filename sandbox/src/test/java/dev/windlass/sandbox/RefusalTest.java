package dev.windlass.sandbox;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The sandbox refuses names, labels and annotations a real API server refuses, with the Status a real server sends
 * (the texts here are v1.34's; RefusalContractIT compares them with a real server's), and takes what a real server
 * takes.
 */
class RefusalTest {

    private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
            + " characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com',"
            + " regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    private Sandbox sandbox;
    private KubernetesClient client;

    @BeforeEach void start() {
        sandbox = new Sandbox();
        client = sandbox.add("east", 1, 1).newClient();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("demo").endMetadata().build()).create();
    }

    @AfterEach void stop() {
        client.close();
        sandbox.close();
    }

    private static ConfigMap configMap(String name, Map<String, String> labels, Map<String, String> annotations) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).withAnnotations(annotations)
                .endMetadata().build();
    }

    private static Status refused(int code, Executable write) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, write);
        assertEquals(code, e.getCode(), e::getMessage);
        return e.getStatus();
    }

    private static List<String> causes(Status status) {
        return status.getDetails().getCauses().stream()
                .map((StatusCause c) -> c.getField() + ": " + c.getReason() + ": " + c.getMessage()).toList();
    }

    @Test void aConfigMapNameMustBeADnsSubdomain() {
        Status status = refused(422, () -> client.configMaps().inNamespace("demo")
                .resource(configMap("Bad_Name", null, null)).create());

        assertEquals("Invalid", status.getReason());
        assertEquals("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": " + SUBDOMAIN,
                status.getMessage());
        assertEquals("ConfigMap", status.getDetails().getKind());
        assertEquals("Bad_Name", status.getDetails().getName());
        assertEquals(List.of("metadata.name: FieldValueInvalid: Invalid value: \"Bad_Name\": " + SUBDOMAIN), causes(status));
        assertEquals(List.of(), client.configMaps().inNamespace("demo").list().getItems(), "nothing stored");
    }

    @Test void aServiceNameMustStartWithALetter() {
        Status status = refused(422, () -> client.services().inNamespace("demo").resource(new ServiceBuilder()
                .withNewMetadata().withName("1web").endMetadata()
                .withNewSpec().addNewPort().withPort(80).endPort().endSpec().build()).create());

        assertEquals("Service \"1web\" is invalid: metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist"
                + " of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an"
                + " alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is"
                + " '[a-z]([-a-z0-9]*[a-z0-9])?')", status.getMessage());
    }

    @Test void aRoleNameIsAPathSegment() {
        client.rbac().roles().inNamespace("demo").resource(new RoleBuilder()
                .withNewMetadata().withName("system:reader").endMetadata().build()).create();

        Status status = refused(422, () -> client.rbac().roles().inNamespace("demo").resource(new RoleBuilder()
                .withNewMetadata().withName("a/b").endMetadata().build()).create());
        assertEquals("Role.rbac.authorization.k8s.io \"a/b\" is invalid: metadata.name: Invalid value: \"a/b\":"
                + " may not contain '/'", status.getMessage());
        assertEquals("rbac.authorization.k8s.io", status.getDetails().getGroup());
    }

    @Test void annotationsTogetherMayTakeAtMost256KiB() {
        String key = "example.com/blob";
        client.configMaps().inNamespace("demo").resource(configMap("fits", null,
                Map.of(key, "x".repeat(256 * 1024 - key.length())))).create();

        Status status = refused(422, () -> client.configMaps().inNamespace("demo").resource(configMap("too-big", null,
                Map.of(key, "x".repeat(256 * 1024 - key.length() + 1)))).create());
        assertEquals("ConfigMap \"too-big\" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes",
                status.getMessage());
        assertEquals(List.of("metadata.annotations: FieldValueTooLong: Too long: may not be more than 262144 bytes"),
                causes(status));
    }

    @Test void everyProblemIsACauseAndTheMessageListsThemInBrackets() {
        Status status = refused(422, () -> client.configMaps().inNamespace("demo")
                .resource(configMap("web", Map.of("tier", "-edge"), Map.of("a/b/c", "x"))).create());

        String label = "Invalid value: \"-edge\": a valid label must be an empty string or consist of alphanumeric"
                + " characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',"
                + "  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        String annotation = "Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-',"
                + " '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name', "
                + " or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an"
                + " optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
        assertEquals("ConfigMap \"web\" is invalid: [metadata.labels: " + label + ", metadata.annotations: "
                + annotation + "]", status.getMessage());
        assertEquals(List.of("metadata.labels: FieldValueInvalid: " + label,
                "metadata.annotations: FieldValueInvalid: " + annotation), causes(status));
    }

    @Test void aMergePatchIsCheckedAsItLeavesTheObject() {
        client.configMaps().inNamespace("demo").resource(configMap("settings", Map.of("app", "web"), null)).create();

        Status status = refused(422, () -> client.configMaps().inNamespace("demo").withName("settings")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"Bad Key\":\"x\"}}}"));
        assertEquals(List.of("metadata.labels"), status.getDetails().getCauses().stream().map(StatusCause::getField).toList());
        assertEquals(Map.of("app", "web"),
                client.configMaps().inNamespace("demo").withName("settings").get().getMetadata().getLabels(), "unchanged");

        Status renamed = refused(400, () -> client.configMaps().inNamespace("demo").withName("settings")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"name\":\"other\"}}"));
        assertEquals("BadRequest", renamed.getReason());
        assertEquals("the name of the object (other) does not match the name on the URL (settings)", renamed.getMessage());
    }

    @Test void aNamespaceThatCannotExistIsNotFound() {
        Status status = refused(404, () -> client.configMaps().inNamespace("UPPER")
                .resource(configMap("settings", null, null)).create());

        assertEquals("NotFound", status.getReason());
        assertEquals("namespaces \"UPPER\" not found", status.getMessage());
    }

    @Test void aMissingObjectIsNamedInTheNotFoundStatus() {
        Status status = refused(404, () -> client.apps().deployments().inNamespace("demo").withName("ghost")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":2}}"));

        assertEquals("deployments.apps \"ghost\" not found", status.getMessage());
        assertEquals("deployments", status.getDetails().getKind());
        assertEquals("apps", status.getDetails().getGroup());
    }
}
