package dev.windlass.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Runs {@code windlass bench} on a tiny fleet (sandbox clusters in a child JVM, a real Git origin) and reads the
 * printed table as a user would. Only counts are asserted, never times: those are the benchmark's to report.
 */
class BenchCommandTest {
    private static String table;

    @BeforeAll static void runBench() {
        BenchCommand command = new BenchCommand();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        command.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = new CommandLine(command).execute("--apps", "12", "--clusters", "2", "--runs", "2", "--status-passes", "5",
                "--status-history-limit", "4");
        table = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, table);
    }

    @Test void theHeaderNamesTheFleetAndTheClusters() {
        assertTrue(table.contains("## 12 apps x 2 clusters x 5 objects = 120 placed objects, on 2 sandbox clusters"), table);
    }

    @Test void theInitialSyncAppliesEveryObjectWithoutFailures() {
        assertEquals(0, median("initial sync: first pass, all objects applied", "  failed actions"), table);
        // 120 objects; per app and cluster its namespace and its inventory record; per cluster the inventories' namespace.
        assertEquals(120 + 24 + 24 + 2, median("initial sync: first pass, all objects applied", "  API writes"), table);
    }

    @Test void aNoOpPassWritesNothingParsesNothingAndReadsOnlyReadiness() {
        assertEquals(0, median("no-op pass", "  API writes (must be 0)"), table);
        // GET /readyz; everything else comes from the engine's watches.
        assertEquals(1, median("no-op pass", "  API reads per cluster"), table);
        assertEquals(0, median("no-op pass", "  files parsed"), table);
        assertEquals(0, median("no-op pass", "  status commits"), table);
    }

    @Test void oneChangedFileIsParsedAloneAndWritesOnlyThatObjectAndItsRecord() {
        assertEquals(1, median("incremental pass: one file changed", "  files parsed"), table);
        assertEquals(2, median("incremental pass: one file changed", "  actions planned (objects to change)"), table);
        // The ConfigMap and the app's inventory record, on each of the 2 clusters.
        assertEquals(4, median("incremental pass: one file changed", "  API writes"), table);
    }

    @Test void thePullRequestIsPlannedWithoutWritingToClusters() {
        assertEquals(1, median("plan of a pull request touching 1% of apps", "  reviews planned (fetch + plan + record)"), table);
        assertEquals(0, median("plan of a pull request touching 1% of apps", "  API writes (must be 0; dry runs aside)"), table);
    }

    @Test void everyEventfulPassCommitsStatusAndTheTipTreeDoesNotGrow() {
        assertEquals(5, median("status branch: eventful passes run", "  status commits made"), table);
        assertEquals(median("status branch: eventful passes run", "  tip tree files, before"),
                median("status branch: eventful passes run", "  tip tree files, after"), table);
    }

    @Test void theStatusBranchKeepsItsHistoryLimit() {
        // The newest 4 kept on one root commit once over twice that: 5 to 9 commits.
        double after = median("status branch: eventful passes run", "  commits on the branch, after");
        assertTrue(after >= 5 && after <= 9, table);
        // Without a trim it would be at least the 5 passes' commits on top of those the sync and settle made.
        assertTrue(median("status branch: eventful passes run", "  origin's pack after its GC (reachable history)") > 0, table);
    }

    @Test void theNaiveLoopWritesEveryObjectOnEveryPass() {
        // A create that finds the object there, then a replace: two writes per object per cluster (a replace that
        // races the simulated controllers is sent again, so a few more at most).
        double naive = median("naive loop: apply every object, one pass", "  API writes");
        assertTrue(naive >= 240 && naive <= 250, table);
        assertTrue(table.contains("no-op pass writes vs naive loop writes"), table);
    }

    @Test void theNaiveLoopsFirstPassCreatesEveryNamespaceAndObjectOnNewClustersOnce() {
        // On clusters nobody wrote to, each create is answered at once: per cluster the 60 objects and the 12 apps'
        // namespaces, one write each. The same work as the initial sync but for the inventory records.
        assertEquals(2 * (60 + 12), median("naive loop: first pass, on new clusters (namespaces too)", "  API writes"), table);
        assertTrue(table.contains("initial sync / naive loop's first pass on new clusters"), table);
    }

    @Test void theNaiveLoopsFirstPassRunsOnceMoreInAJvmOfItsOwnAgainstWhichTheColdEngineIsCompared() {
        // The same creates on yet another new set of clusters, counted there, by a JVM started for it in the first run.
        assertEquals(2 * (60 + 12), median(NaiveFirstPassJvm.NAME, "  API writes"), table);
        // Its own CPU, read by itself, and the clusters' without it.
        assertTrue(median(NaiveFirstPassJvm.NAME, "  CPU, this JVM (the engine or the baseline)") > 0, table);
        assertTrue(median(NaiveFirstPassJvm.NAME, "  CPU, the clusters' processes") > 0, table);
        assertTrue(table.contains("initial sync, engine JVM cold / naive first pass, new JVM"), table);
    }

    @Test void theSecondRunsInitialSyncIsAlsoShownAloneAsThatOfAWarmEngine() {
        // Two runs: the second one's sync ran on engine code the first had compiled, as a running engine's does.
        assertTrue(median("initial sync: first pass, all objects applied", "  of them, runs after the first (engine JVM warm)") > 0, table);
        assertTrue(table.contains("initial sync, engine JVM warm / naive loop's first pass"), table);
    }

    @Test void theCpuOfTheEngineAndOfTheClustersIsShownForTheSyncAndTheNaiveLoopsFirstPass() {
        // Read from /proc: both the engine's JVM and the cluster host (a child process) worked during each.
        for (String phase : new String[] {"initial sync: first pass, all objects applied", "naive loop: first pass, on new clusters (namespaces too)"}) {
            assertTrue(median(phase, "  CPU, this JVM (the engine or the baseline)") > 0, table);
            assertTrue(median(phase, "  CPU, the clusters' processes") > 0, table);
            double busy = median(phase, "  cores busy, whole machine (average)");
            assertTrue(busy > 0 && busy <= Runtime.getRuntime().availableProcessors() + 0.05, table);
        }
        assertTrue(table.contains("clusters' CPU per write, initial sync / naive first pass"), table);
        // What the clusters' own work for the creates leaves a sync at best, against the floor: printed as a number.
        String bound = table.lines().filter(l -> l.contains(Report.CLUSTERS_ALONE)).findFirst().orElseThrow(() -> new AssertionError(table));
        assertTrue(Double.parseDouble(bound.substring(bound.lastIndexOf(' ') + 1)) > 0, bound);
    }

    @Test void theInitialSyncReadsNoInventoryBeforeCreatingIt() {
        // Per cluster: the inventory namespace looked up once, and the LISTs and readiness checks of the pass; a read
        // per app (its inventory, or the namespace before creating it) would be 12 or more per cluster.
        assertTrue(median("initial sync: first pass, all objects applied", "  API reads") < 2 * 12, table);
    }

    @Test void theRatiosToTheFloorsArePrintedForOneAndSeveralWritesInFlight() {
        assertTrue(table.contains("floor: one round trip per placed object, 8 in flight per cluster"), table);
        assertTrue(table.contains("initial sync / round-trip floor, 8 in flight per cluster"), table);
        assertTrue(table.contains("full parse, warm / parse floor"), table);
    }

    /** The median column of a figure's line, taken under the top-level figure it belongs to. */
    private static double median(String figure, String detail) {
        int at = table.indexOf("\n" + figure + " ");
        assertTrue(at >= 0, "no figure '" + figure + "' in:\n" + table);
        Matcher m = Pattern.compile("\n" + Pattern.quote(detail) + "\\s+([0-9,.]+)").matcher(table);
        assertTrue(m.find(at), "no '" + detail.strip() + "' under '" + figure + "' in:\n" + table);
        return Double.parseDouble(m.group(1).replace(",", ""));
    }
}
