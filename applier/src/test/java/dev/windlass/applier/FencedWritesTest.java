package dev.windlass.applier;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A write fence that closes in the middle of a plan: nothing is written after it refused, in that stage or a later one. */
class FencedWritesTest {

    private final MockCluster east = MockCluster.crud();
    private Applier applier;

    private final Action first = create("east", configMap("demo", "a", "1"));
    private final Action second = create("east", configMap("demo", "b", "1"));
    private final Action later = create("east", configMap("demo", "c", "1"));

    /** Open until the cluster holds the first object: the lease is lost right after the first write. */
    private final WriteFence lostAfterFirstWrite = () -> east.client().configMaps().inNamespace("demo").withName("a").get() == null
            ? Optional.empty() : Optional.of("lease lost");

    @BeforeEach void start() {
        ClusterClients clients = new ClusterClients();
        clients.register("east", east.config(), true);
        applier = new Applier(clients);
    }

    @AfterEach void stop() {
        applier.close();
        east.close();
    }

    @Test void nothingIsWrittenOnceTheFenceRefuses() {
        List<ActionResult> results = applier.executeStages(List.of(new Stage("apply", "", List.of(first, second)),
                new Stage("prune", "", List.of(later))), lostAfterFirstWrite);

        assertEquals(Outcome.Created, results.get(0).outcome());
        assertEquals(Outcome.Failed, results.get(1).outcome());
        assertEquals("not written: lease lost", results.get(1).message());
        assertTrue(results.get(1).transientFailure());
        assertEquals(2, results.size(), "the later stage is never reached: " + results);
        assertNull(east.client().configMaps().inNamespace("demo").withName("b").get());
        assertNull(east.client().configMaps().inNamespace("demo").withName("c").get());
    }

    @Test void anOpenFenceChangesNothing() {
        List<ActionResult> results = applier.executeStages(List.of(new Stage("apply", "", List.of(first, second))), WriteFence.OPEN);

        assertTrue(results.stream().allMatch(r -> r.outcome() == Outcome.Created), results.toString());
    }
}
