package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.orphan;
import static dev.windlass.applier.support.Fixtures.serverSide;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Letting go of a server-side applied object: it stays, with its content, and is no longer Windlass's. */
class OrphanIT {

    private static RealCluster cluster;
    private static Applier applier;

    @BeforeAll static void start() {
        cluster = RealCluster.start();
        applier = cluster.newApplier();
    }

    @AfterAll static void stop() {
        applier.close();
        cluster.close();
    }

    @Test void anOrphanedObjectStaysWithoutWindlassMarks() {
        String ns = cluster.newNamespace("orphan");
        var settings = configMap(ns, "settings", "kept");
        applier.execute(new Stage("apply", "", List.of(serverSide(create(RealCluster.NAME, settings)))));

        ActionResult result = applier.execute(new Stage("prune", "",
                List.of(orphan(RealCluster.NAME, settings.ref(), "v1")))).get(0);

        assertEquals(Outcome.Configured, result.outcome(), result.message());
        assertEquals("orphaned: kept, no longer managed", result.message());
        ConfigMap live = cluster.admin().configMaps().inNamespace(ns).withName("settings").get();
        assertNotNull(live, "the object stays");
        assertEquals("kept", live.getData().get("key"));
        Map<String, String> labels = live.getMetadata().getLabels() == null ? Map.of() : live.getMetadata().getLabels();
        Map<String, String> annotations = live.getMetadata().getAnnotations() == null ? Map.of() : live.getMetadata().getAnnotations();
        assertFalse(labels.containsKey("app.kubernetes.io/managed-by") || labels.containsKey("windlass.dev/app"), labels.toString());
        assertFalse(annotations.containsKey("windlass.dev/applied-hash") || annotations.containsKey("windlass.dev/last-applied"),
                annotations.toString());
        var observed = applier.observe(Map.of(RealCluster.NAME, Set.of(new KindRef("v1", "ConfigMap"))));
        assertTrue(observed.cluster(RealCluster.NAME).objects().keySet().stream().noneMatch(r -> r.namespace().equals(ns)),
                "no longer observed as managed");
        assertEquals("", observed.cluster(RealCluster.NAME).notReady(), "a real API server answers /readyz with 200");
    }
}
