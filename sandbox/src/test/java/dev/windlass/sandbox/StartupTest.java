package dev.windlass.sandbox;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Twenty clusters, as the benchmark will start: each after the first comes up in well under a second. */
class StartupTest {

    @Test void twentyClustersStartQuickly() {
        List<Long> millis = new ArrayList<>();
        int threadsBefore = Thread.activeCount();
        try (Sandbox sandbox = new Sandbox()) {
            for (int i = 0; i < 20; i++) {
                long t0 = System.nanoTime();
                sandbox.add("c" + i, 3, 1);
                millis.add((System.nanoTime() - t0) / 1_000_000);
            }
            sandbox.simulator().start(Duration.ofMillis(500), Clock.systemUTC());
            try (KubernetesClient client = sandbox.cluster("c19").newClient()) {
                assertEquals(3, client.nodes().list().getItems().size());
            }
            Runtime rt = Runtime.getRuntime();
            System.gc();
            System.out.printf("sandbox: start-up ms per cluster %s; threads +%d; heap used %d MB%n", millis,
                    Thread.activeCount() - threadsBefore, (rt.totalMemory() - rt.freeMemory()) >> 20);
        }
        for (long ms : millis.subList(1, millis.size())) {
            assertTrue(ms < 1_000, "a cluster after the first took " + ms + " ms to start: " + millis);
        }
    }
}
