package dev.windlass.sandbox;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A watch that goes away while the server is still streaming events to it. The stock mock server cleans up such a
 * watch on its event loop and waits there for the unsent events, which need that same loop: the whole cluster then
 * stops answering for 30 seconds. The sandbox hands that clean-up to a thread of its own, and first takes the watch
 * out of the server's set of watchers, so a write in the meantime is not lost to it.
 */
class WatchCloseTest {

    private static final int OBJECTS = 400;

    @Test void aWatchClosedMidStreamLeavesTheClusterAnswering() throws Exception {
        try (Sandbox sandbox = new Sandbox()) {
            SandboxCluster east = sandbox.add("east", 1, 1);
            fill(east);
            for (int round = 0; round < 15; round++) {
                dropAWatchMidStream(east);

                // Frozen, the cluster does not answer this within the client's 10 s request timeout.
                try (KubernetesClient probe = east.newClient()) {
                    assertEquals(OBJECTS, probe.configMaps().inNamespace("default").list().getItems().size(),
                            "round " + round);
                }
            }
            // Frozen, its shutdown fails ("Unable to close MockWebServer").
            sandbox.close();
        }
    }

    @Test void writesRightAfterAWatchClosedAreAnswered() throws Exception {
        try (Sandbox sandbox = new Sandbox()) {
            SandboxCluster east = sandbox.add("east", 1, 1);
            fill(east);
            try (KubernetesClient writer = east.newClient()) {
                for (int round = 0; round < 15; round++) {
                    dropAWatchMidStream(east);
                    // A write the closed watch would have matched: the server must answer it (within the client's
                    // 10 s request timeout), not lose it to the watch's stopped sender.
                    for (int i = 0; i < 20; i++) {
                        String value = round + "-" + i;
                        writer.configMaps().inNamespace("default").withName("cm-" + i).edit(c -> {
                            c.getData().put("i", value);
                            return c;
                        });
                        assertEquals(value, writer.configMaps().inNamespace("default").withName("cm-" + i).get().getData().get("i"));
                    }
                }
            }
        }
    }

    private static void fill(SandboxCluster east) {
        for (int i = 0; i < OBJECTS; i++) {
            east.local().create(new ConfigMapBuilder().withNewMetadata().withName("cm-" + i).withNamespace("default")
                    .endMetadata().addToData("i", Integer.toString(i)).build());
        }
    }

    /** Opening a watch makes the server stream every stored object; the client leaves after the first. */
    private static void dropAWatchMidStream(SandboxCluster east) throws InterruptedException {
        CountDownLatch first = new CountDownLatch(1);
        KubernetesClient watcher = east.newClient();
        watcher.configMaps().inNamespace("default").watch(new Watcher<ConfigMap>() {
            @Override public void eventReceived(Action action, ConfigMap resource) { first.countDown(); }

            @Override public void onClose(WatcherException cause) { }
        });
        assertTrue(first.await(5, TimeUnit.SECONDS), "the watch delivered nothing");
        watcher.close();
    }
}
