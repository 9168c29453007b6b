package dev.windlass.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code windlass bench --scenario dashboard} on a tiny fleet: the page loads in chromium and the figures are printed. */
class DashboardScenarioIT {
    @Test void theDashboardScenarioLoadsTheFleetPageInTheBrowser() {
        Assumptions.assumeFalse(Boolean.getBoolean("windlass.skipBrowserTests"), "-DskipBrowserTests");
        BenchCommand command = new BenchCommand();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        command.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = new CommandLine(command).execute("--scenario", "dashboard", "--apps", "60", "--clusters", "3", "--runs", "1");
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, table);
        assertTrue(table.contains("fleet page 1 holds 150 cells"), "50 apps x 3 clusters on the first page:\n" + table);
        assertTrue(table.contains("\n/?page=2 "), table);
        assertTrue(table.contains("goal: every fleet page loads in the browser in under 2 s: "), "the goal is reported, met or not:\n" + table);
    }
}
