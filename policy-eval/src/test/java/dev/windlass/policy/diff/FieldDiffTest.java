package dev.windlass.policy.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class FieldDiffTest {
    static Map<String, Object> container(Object cpu, Object memory, Object env) {
        return Map.of("spec", Map.of("containers", List.of(Map.of(
                "name", "app",
                "resources", Map.of("requests", Map.of("cpu", cpu, "memory", memory)),
                "env", List.of(Map.of("name", "RATE", "value", env))))));
    }

    @Test
    void onlyFieldsGitSetsCountAndDefaultsAreNotDrift() {
        Map<String, Object> desired = Map.of("spec", Map.of("replicas", 2));
        Map<String, Object> live = Map.of("spec", Map.of("replicas", 2L, "strategy", Map.of("type", "RollingUpdate")), "status", Map.of());
        assertEquals(List.of(), FieldDiff.differences(desired, live));
        assertEquals(List.of("spec.replicas"), FieldDiff.differences(desired, Map.of("spec", Map.of("replicas", 3))));
    }

    @Test
    void quantitiesCompareByValueWhereTheyAreQuantities() {
        assertEquals(List.of(), FieldDiff.differences(container("2000m", "1Gi", "1000"), container("2", "1073741824", "1000")),
                "the API server respells quantities");
        assertEquals(List.of("spec.containers[0].resources.requests.cpu"),
                FieldDiff.differences(container("500m", "1Gi", "1000"), container("1", "1Gi", "1000")));
        assertEquals(List.of("spec.containers[0].env[0].value"), FieldDiff.differences(container("1", "1Gi", "1e3"), container("1", "1Gi", "1000")),
                "an environment value is text, never a quantity");
    }

    static Map<String, Object> secret(Map<String, Object> fields) {
        Map<String, Object> s = new java.util.LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Secret", "metadata", Map.of("name", "db")));
        s.putAll(fields);
        return s;
    }

    @Test
    void aSecretsStringDataComparesAsTheDataTheServerStores() {
        Map<String, Object> git = secret(Map.of("stringData", Map.of("user", "app", "password", "s3cret"), "data", Map.of("ca", "Q0E=")));
        // What an API server returns: stringData folded into data, base64-encoded, and never stringData itself.
        Map<String, Object> server = secret(Map.of("data", Map.of("user", "YXBw", "password", "czNjcmV0", "ca", "Q0E="), "type", "Opaque"));
        assertEquals(List.of(), FieldDiff.differences(git, server));
        Map<String, Object> rotated = secret(Map.of("data", Map.of("user", "YXBw", "password", "b2xk", "ca", "Q0E=")));
        assertEquals(List.of("stringData.password"), FieldDiff.differences(git, rotated), "named as Git wrote it");
        // A store that keeps stringData as written (the sandbox) is no drift either.
        assertEquals(List.of(), FieldDiff.differences(git, secret(Map.of("stringData", Map.of("user", "app", "password", "s3cret"), "data", Map.of("ca", "Q0E=")))));
    }

    static Map<String, Object> yaml(String text) { return new Yaml().load(text); }

    /** What a v1.34 API server returned for ingress-nginx's controller Deployment: zero and false fields left out. */
    @Test
    void zeroValuesTheServerLeavesOutAreNoDrift() {
        Map<String, Object> git = yaml("""
                spec:
                  minReadySeconds: 0
                  revisionHistoryLimit: 10
                  template:
                    spec:
                      containers:
                      - name: controller
                        securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: false}
                        volumeMounts: [{name: webhook-cert, mountPath: /usr/local/certificates/, readOnly: true}]
                      hostNetwork: false
                      nodeSelector: {}
                      terminationGracePeriodSeconds: 300
                """);
        Map<String, Object> live = yaml("""
                spec:
                  revisionHistoryLimit: 10
                  template:
                    spec:
                      containers:
                      - name: controller
                        securityContext: {allowPrivilegeEscalation: false}
                        volumeMounts: [{name: webhook-cert, mountPath: /usr/local/certificates/, readOnly: true}]
                        terminationMessagePath: /dev/termination-log
                      terminationGracePeriodSeconds: 300
                """);
        assertEquals(List.of(), FieldDiff.differences(git, live));
        Map<String, Object> changed = yaml("""
                spec:
                  minReadySeconds: 5
                  revisionHistoryLimit: 10
                  template: {spec: {containers: [{name: controller, securityContext: {allowPrivilegeEscalation: true}}], terminationGracePeriodSeconds: 300}}
                """);
        assertEquals(List.of("spec.minReadySeconds", "spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation",
                "spec.template.spec.containers[0].volumeMounts"), FieldDiff.differences(git, changed),
                "a zero value in Git still differs from a value someone set");
    }

    @Test
    void intOrStringFieldsCompareAsTheirText() {
        assertEquals(List.of(), FieldDiff.differences(yaml("spec: {ports: [{port: 80, targetPort: \"8080\"}], strategy: {rollingUpdate: {maxSurge: 1}}}"),
                yaml("spec: {ports: [{port: 80, targetPort: 8080, protocol: TCP}], strategy: {rollingUpdate: {maxSurge: \"1\"}}}")));
    }

    /** One rule for quantities, the one the applier used to have on its own: limit ranges, volumes and claims too. */
    @Test
    void quantitiesCompareByValueWhereverKubernetesKeepsThem() {
        Map<String, Object> live = yaml("""
                spec:
                  containers: [{name: db, args: ["2"], resources: {limits: {cpu: "2", memory: 512Mi}, requests: {cpu: 100m}}}]
                  volumes: [{emptyDir: {sizeLimit: 1Gi}}]
                  limits: [{type: Container, default: {cpu: 500m}, max: {memory: 1Gi}}]
                  resources: {requests: {storage: 10Gi}}
                """);
        Map<String, Object> same = yaml("""
                spec:
                  containers: [{name: db, args: ["2"], resources: {limits: {cpu: 2000m, memory: 512Mi}, requests: {cpu: "0.1"}}}]
                  volumes: [{emptyDir: {sizeLimit: 1024Mi}}]
                  limits: [{type: Container, default: {cpu: "0.5"}, max: {memory: 1024Mi}}]
                  resources: {requests: {storage: 10240Mi}}
                """);
        assertEquals(List.of(), FieldDiff.differences(same, live));
        Map<String, Object> other = yaml("""
                spec:
                  containers: [{name: db, args: ["2000m"], resources: {limits: {cpu: 3000m, memory: 512Mi}, requests: {cpu: 100m}}}]
                """);
        assertEquals(List.of("spec.containers[0].args[0]", "spec.containers[0].resources.limits.cpu"), FieldDiff.differences(other, live),
                "other amounts differ, and text that looks like an amount is still text");
    }

    @Test
    void theManagedByLabelIsWindlasssMarkNotDriftButOtherLabelsAre() {
        var chart = yaml("""
                metadata: {labels: {app.kubernetes.io/managed-by: Helm, app.kubernetes.io/name: web}}
                spec: {template: {metadata: {labels: {app.kubernetes.io/managed-by: Helm}}}}
                """);
        var live = yaml("""
                metadata: {labels: {app.kubernetes.io/managed-by: windlass, windlass.dev/app: web, app.kubernetes.io/name: other}}
                spec: {template: {metadata: {labels: {app.kubernetes.io/managed-by: windlass}}}}
                """);
        assertEquals(List.of("metadata.labels.app.kubernetes.io/name", "spec.template.metadata.labels.app.kubernetes.io/managed-by"),
                FieldDiff.differences(chart, live), "the stamp on the object is Windlass's; the pod template's is not stamped");
    }
}
