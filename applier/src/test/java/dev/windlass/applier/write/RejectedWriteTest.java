package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.manifest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the API server refuses becomes a Failed result: terminal when the object itself is wrong, transient
 * when the server is overloaded or broken. The CRUD mock never validates, so these answers are scripted.
 */
class RejectedWriteTest {

    private static final String COLLECTION = "/apis/apps/v1/namespaces/demo/deployments";
    private static final String INVALID = "Deployment.apps \"web\" is invalid: spec.template.metadata.labels: "
            + "Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`";

    private static final Manifest WEB = manifest("""
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: demo}
            spec:
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: other}}
                spec: {containers: [{name: web, image: nginx}]}
            """);

    private final MockCluster cluster = MockCluster.expectations();
    private final ActionWrite apply = new ActionWrite();

    @AfterEach void stop() { cluster.close(); }

    @Test void invalidObjectFailsTerminallyWithTheServersMessage() {
        cluster.server().expect().post().withPath(COLLECTION).andReturn(422, status(422, "Invalid", INVALID)).once();

        ActionResult result = apply.apply(cluster.client(), create("eu-1", WEB));

        assertEquals(Outcome.Failed, result.outcome());
        assertFalse(result.transientFailure(), "a rejected object will be rejected again until Git changes");
        assertTrue(result.message().contains("HTTP 422"), result.message());
        assertTrue(result.message().contains("`selector` does not match template `labels`"), result.message());
    }

    @Test void overloadedServerFailsTransiently() {
        cluster.server().expect().post().withPath(COLLECTION).andReturn(429, status(429, "TooManyRequests", "slow down")).always();

        ActionResult result = apply.apply(cluster.client(), create("eu-1", WEB));

        assertEquals(Outcome.Failed, result.outcome());
        assertTrue(result.transientFailure());
        assertTrue(result.message().contains("slow down"), result.message());
    }

    @Test void serverErrorFailsTransiently() {
        cluster.server().expect().post().withPath(COLLECTION).andReturn(503, status(503, "ServiceUnavailable", "etcd leader changed")).always();

        ActionResult result = apply.apply(cluster.client(), create("eu-1", WEB));

        assertEquals(Outcome.Failed, result.outcome());
        assertTrue(result.transientFailure());
        assertTrue(result.message().startsWith("HTTP 503"), result.message());
    }

    private static String status(int code, String reason, String message) {
        return """
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"%s","reason":"%s","code":%d}
                """.formatted(message.replace("\"", "\\\""), reason, code);
    }
}
