package dev.windlass.applier.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.Manifest.GcPolicy;
import dev.windlass.policy.state.InventoryEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A new inventory's body is made once for the clusters that get the same record, and afresh for any other record. */
class InventoryBodiesTest {

    private static final InventoryEntry DEPLOYMENT = new InventoryEntry("apps/v1", "Deployment", "web", "frontend", "1d7b", GcPolicy.ON_APP_UPDATE);
    private static final InventoryEntry CHANGED = new InventoryEntry("apps/v1", "Deployment", "web", "frontend", "ffff", GcPolicy.ON_APP_UPDATE);

    @Test void theSameRecordOnAnotherClusterIsNotMadeAgain() {
        InventoryBodies bodies = new InventoryBodies();
        AtomicInteger made = new AtomicInteger();

        String first = bodies.of("web", new ArrayList<>(List.of(DEPLOYMENT)), () -> "body " + made.incrementAndGet());
        String second = bodies.of("web", List.of(DEPLOYMENT), () -> "body " + made.incrementAndGet());

        assertEquals("body 1", first);
        assertEquals("body 1", second);
        assertEquals(1, made.get());
    }

    @Test void anotherAppOrOtherEntriesGetTheirOwnBody() {
        InventoryBodies bodies = new InventoryBodies();
        AtomicInteger made = new AtomicInteger();

        bodies.of("web", List.of(DEPLOYMENT), () -> "body " + made.incrementAndGet());
        String otherApp = bodies.of("shop", List.of(DEPLOYMENT), () -> "body " + made.incrementAndGet());
        String otherHash = bodies.of("web", List.of(CHANGED), () -> "body " + made.incrementAndGet());

        assertEquals("body 2", otherApp);
        assertEquals("body 3", otherHash);
    }

    @Test void entriesChangedAfterwardsDoNotChangeWhatWasKept() {
        InventoryBodies bodies = new InventoryBodies();
        List<InventoryEntry> entries = new ArrayList<>(List.of(DEPLOYMENT));
        bodies.of("web", entries, () -> "deployment 1d7b");

        entries.set(0, CHANGED);

        assertEquals("deployment ffff", bodies.of("web", entries, () -> "deployment ffff"));
        assertEquals("deployment 1d7b", bodies.of("web", List.of(DEPLOYMENT), () -> "made again"));
    }
}
