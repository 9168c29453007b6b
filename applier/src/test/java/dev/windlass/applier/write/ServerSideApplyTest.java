package dev.windlass.applier.write;

import dev.windlass.policy.plan.ActionReason;
import static dev.windlass.applier.support.Fixtures.configMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.support.Fixtures;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shape of a server-side apply request. The mock has no server-side apply, so the answer is scripted;
 * its semantics are for a real API server to show.
 */
class ServerSideApplyTest {

    private static final String PATH = "/api/v1/namespaces/demo/configmaps/settings";

    @Test void appliesAsWindlassWithoutForcing() throws InterruptedException {
        try (MockCluster cluster = MockCluster.expectations()) {
            String stored = """
                    {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"demo","resourceVersion":"1"}}
                    """;
            cluster.server().expect().patch().withPath(PATH + "?fieldManager=windlass").andReturn(201, stored).once();
            var manifest = configMap("demo", "settings", "v");
            var action = new Action(Fixtures.APP, "eu-1", manifest.ref(), manifest.apiVersion(), Operation.Create, new ActionReason.NotOnCluster(), List.of(), manifest,
                    ApplyStrategy.ServerSide, false);

            ActionResult result = new ActionWrite().apply(cluster.client(), action);

            assertEquals(Outcome.Created, result.outcome(), result.message());
            // The plan saw no such object: the apply goes out without a look first.
            RecordedRequest apply = cluster.server().takeRequest(1, TimeUnit.SECONDS);
            assertEquals("PATCH", apply.getMethod());
            assertEquals(1, cluster.server().getRequestCount(), "one request for a new object");
            assertTrue(apply.getHeader("Content-Type").startsWith("application/apply-patch+yaml"), apply.getHeader("Content-Type"));
            assertFalse(apply.getPath().contains("force=true"), apply.getPath());
            assertTrue(apply.getBody().readUtf8().contains("app.kubernetes.io/managed-by"));
        }
    }
}
