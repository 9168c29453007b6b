package dev.windlass.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The published benchmark's shape and the hung-cluster scenario of {@code windlass bench}, each on a tiny sandbox fleet,
 * read from the printed table. Only counts and what is printed are asserted, never times.
 */
class BenchScenariosTest {

    @Test void thePublishedShapeAppliesFourObjectsPerAppAndBecomesHealthy() {
        String table = bench("--workload", "flux-benchmark", "--apps", "6", "--clusters", "2", "--runs", "1");
        assertTrue(table.contains("## 6 apps x 2 clusters x 4 objects (flux-benchmark) = 48 placed objects, on 2 sandbox clusters"), table);
        assertEquals(0, median(table, "initial sync: first pass, all objects applied", "  failed actions"), table);
        // 48 objects; per app and cluster its namespace and its inventory record; per cluster the inventories' namespace.
        assertEquals(48 + 12 + 12 + 2, median(table, "initial sync: first pass, all objects applied", "  API writes"), table);
        assertTrue(table.contains("\n  until healthy: every app Healthy on every cluster"), table);
        assertTrue(table.contains("\nstart to all applied: clone + first pass "), table);
        assertTrue(table.contains("\nstart to all healthy: clone + passes until all Healthy "), table);
        assertEquals(0, median(table, "no-op pass", "  API writes (must be 0)"), table);
        // The edited file is the app's Service: it and the app's inventory record, on each of the 2 clusters.
        assertEquals(4, median(table, "incremental pass: one file changed", "  API writes"), table);
    }

    @Test void theHungClusterScenarioComparesPushesWithAndWithoutTheHang() {
        String table = bench("--scenario", "hung-cluster", "--apps", "4", "--clusters", "3", "--runs", "1", "--pushes", "2");
        assertTrue(table.contains("Hung cluster: push to applied on the 2 clusters that answer"), table);
        assertTrue(median(table, HungCluster.NONE_HUNG, "  passes until applied") >= 1, table);
        assertTrue(median(table, HungCluster.ONE_HUNG, "  passes until applied") >= 1, table);
        assertTrue(table.contains("\n" + HungCluster.FIRST_AFTER_HANG), table);
        assertTrue(table.contains("goal: 1 hung / none hung <= 1.10"), table);
        assertTrue(median(table, "hung cluster thawed: until it has the last push", "  passes") >= 1, table);
        assertTrue(!table.contains("Ratios to the baselines"), "no baselines are measured in this scenario:\n" + table);
    }

    @Test void aWorkloadOrScenarioThatDoesNotExistIsAUsageErrorBeforeAnythingStarts() {
        for (String[] args : new String[][] {{"--workload", "nginx"}, {"--scenario", "slow"}, {"--workload", "flux-benchmark", "--objects-per-app", "5"},
                {"--scenario", "hung-cluster", "--clusters", "1"}, {"--peer", "argo"}, {"--peer", "flux", "--peer-sources", "all"}}) {
            BenchCommand command = new BenchCommand();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = new CommandLine(command).setErr(new java.io.PrintWriter(err, true)).execute(args);
            assertEquals(2, exit, String.join(" ", args) + ": " + err);
        }
    }

    private static String bench(String... args) {
        BenchCommand command = new BenchCommand();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        command.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = new CommandLine(command).execute(args);
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, table);
        return table;
    }

    /** The median column of a figure's line, taken under the top-level figure it belongs to. */
    private static double median(String table, String figure, String detail) {
        int at = table.indexOf("\n" + figure + " ");
        assertTrue(at >= 0, "no figure '" + figure + "' in:\n" + table);
        Matcher m = Pattern.compile("\n" + Pattern.quote(detail) + "\\s+([0-9,.]+)").matcher(table);
        assertTrue(m.find(at), "no '" + detail.strip() + "' under '" + figure + "' in:\n" + table);
        return Double.parseDouble(m.group(1).replace(",", ""));
    }
}
