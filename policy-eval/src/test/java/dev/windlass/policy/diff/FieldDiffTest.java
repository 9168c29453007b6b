package dev.windlass.policy.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
