package dev.windlass.applier.reads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Which resource a write's path is about: what decides which watches it makes unproven. */
class WriteMarksTest {

    @Test void namespacedObjectsAndTheirSubresources() {
        assertEquals("/configmaps", WriteMarks.resource("/api/v1/namespaces/web/configmaps/settings"));
        assertEquals("/configmaps", WriteMarks.resource("/api/v1/namespaces/web/configmaps"));
        assertEquals("apps/deployments", WriteMarks.resource("/apis/apps/v1/namespaces/web/deployments/web/status"));
        assertEquals("/pods", WriteMarks.resource("/api/v1/namespaces/web/pods/web-1/eviction"));
        assertEquals("stable.example.com/crontabs", WriteMarks.resource("/apis/stable.example.com/v1/namespaces/a/crontabs/c"));
    }

    @Test void namespacesThemselvesAndClusterScopedObjects() {
        assertEquals("/namespaces", WriteMarks.resource("/api/v1/namespaces/web"));
        assertEquals("/namespaces", WriteMarks.resource("/api/v1/namespaces"));
        assertEquals("/nodes", WriteMarks.resource("/api/v1/nodes/cp-1"));
        assertEquals("apiextensions.k8s.io/customresourcedefinitions",
                WriteMarks.resource("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com"));
    }

    @Test void pathsThatNameNoResource() {
        assertNull(WriteMarks.resource("/readyz"));
        assertNull(WriteMarks.resource("/api/v1"));
        assertNull(WriteMarks.resource("/apis/apps/v1"));
        assertNull(WriteMarks.resource(null));
    }
}
