package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.engine.reconcile.PassReport;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pass with nothing new asks the Git remote once: one fetch tells that no branch moved, and the status branch it
 * brought is what the pass and the reviews read. Counted as the connections the engine's mirror opened to the origin.
 */
class IdleGitE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");

    @TempDir Path dir;

    @Test
    void anIdlePassAndItsReviewsMakeOneRoundTripToTheRemote() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            fleet.pushTo("feature", "a branch to review", c -> c.write("apps/web/manifests/notes.yaml",
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes}\ndata: {a: b}\n"));
            PassReport settled = fleet.settle();
            fleet.engine.reviews().run(settled.source(), settled.desired());
            PassReport again = fleet.pass();
            fleet.engine.reviews().run(again.source(), again.desired());

            long before = fleet.engine.mirror().roundTrips();
            PassReport idle = fleet.pass();
            fleet.engine.reviews().run(idle.source(), idle.desired());
            long trips = fleet.engine.mirror().roundTrips() - before;
            assertEquals(false, idle.committed(), "nothing new: no status commit");
            assertEquals(1, trips, "round trips to the remote in an idle pass and its reviews");
        }
    }
}
