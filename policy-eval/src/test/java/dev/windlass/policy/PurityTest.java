package dev.windlass.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** policy-eval decides; it never reads files, asks the clock or starts threads. The time comes in as {@code Instant now}. */
class PurityTest {
    static final Pattern FORBIDDEN = Pattern.compile(
            "Instant\\.now\\(|Clock\\.system|System\\.currentTimeMillis|System\\.nanoTime|LocalDate(Time)?\\.now\\(|ZonedDateTime\\.now\\("
                    + "|java\\.io\\.File\\b|java\\.nio\\.file|new Thread\\(|ExecutorService|java\\.net\\.|Random\\(");

    @Test
    void mainSourcesUseNoClockNoIoNoThreads() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (FORBIDDEN.matcher(lines.get(i)).find()) found.add(f + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertEquals(List.of(), found);
    }
}
