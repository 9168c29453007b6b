package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JVM whose first render begins while it is already stopping (a signal during the first sync): the renders' registry
 * still works, and a tool started then is stopped at once. Before, the registry's class could not be loaded at all
 * (its shutdown hook could not be added), and the pass died with a NoClassDefFoundError instead of stopping.
 */
class RenderDuringShutdownTest {

    /** Run in a JVM of its own: touches the registry for the first time from a shutdown hook, and starts a tool there. */
    public static final class FirstRenderWhileStopping {
        public static void main(String[] args) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Process sleeper = new ProcessBuilder("sleep", "30").start();
                    LiveRenders.started(sleeper, Path.of("/nonexistent-windlass-render-folder"));
                    System.out.println("registry ok; tool alive after start: " + sleeper.isAlive() + "; running: " + LiveRenders.running());
                } catch (Throwable e) {
                    System.out.println("failed: " + e);
                }
            }));
        }
    }

    @Test
    void theFirstRenderOfAStoppingJvmIsStoppedAtOnceNotAClassThatCannotLoad() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), FirstRenderWhileStopping.class.getName())
                .redirectErrorStream(true).start();
        assertTrue(jvm.waitFor(60, TimeUnit.SECONDS));
        String out = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals("registry ok; tool alive after start: false; running: 0", out);
    }
}
