package dev.windlass.applier.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.applier.reads.Query;
import dev.windlass.applier.reads.ReadsStamp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a log line says moved between two stamps of a fleet. */
class FleetStampTest {

    private static final Query NODES = Query.of("v1", "Node");
    private static final Query SERVICES = Query.of("v1", "Service").withLabel("app.kubernetes.io/managed-by", "windlass");

    @Test void namesEachClustersQueriesThatChangedItsWritesAndClustersInOneStampOnly() {
        FleetStamp before = new FleetStamp(Map.of("eu-1", new ReadsStamp(Map.of(NODES, 3L, SERVICES, 10L), 7),
                "us-1", new ReadsStamp(Map.of(NODES, 1L), 0), "gone", new ReadsStamp(Map.of(), 0)));
        FleetStamp after = new FleetStamp(Map.of("eu-1", new ReadsStamp(Map.of(NODES, 4L, SERVICES, 10L), 9),
                "us-1", new ReadsStamp(Map.of(NODES, 1L), 0), "new", new ReadsStamp(Map.of(), 0)));

        assertEquals(List.of("eu-1: 2 writes", "eu-1: " + NODES, "gone", "new"), before.movedIn(after));
        assertEquals(List.of(), before.movedIn(before));
    }
}
