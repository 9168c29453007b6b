package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a command prints reaches the stream even when it does not end in a newline (main() exits right after). */
class MainOutputTest {
    @Test
    void outputIsFlushedBeforeReturning() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintWriter out = new PrintWriter(bytes, false);
        int code = Main.run(out, new PrintWriter(new ByteArrayOutputStream(), false), "validate", "../examples-repo");
        assertEquals(0, code);
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("3 clusters, 5 applications"), bytes.toString(StandardCharsets.UTF_8));
    }
}
