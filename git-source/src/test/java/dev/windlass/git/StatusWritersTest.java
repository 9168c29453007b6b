package dev.windlass.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines' status writers, each on its own mirror of one origin, each computing its change against what it read:
 * files only one of them changed are both kept, and a file both changed is never overwritten blindly.
 */
class StatusWritersTest {

    static final String STATUS = StatusWriter.DEFAULT_BRANCH;

    @TempDir Path tmp;
    Origin origin;
    Mirror mirrorA;
    Mirror mirrorB;
    StatusWriter a;
    StatusWriter b;

    @BeforeEach void setUp() throws Exception {
        origin = Origin.create(tmp);
        origin.commit("main", Map.of("clusters/prod.yaml", "name: prod\n"), "config");
        mirrorA = Mirror.open(tmp.resolve("mirror-a"), GitRemote.anonymous(origin.url()));
        mirrorB = Mirror.open(tmp.resolve("mirror-b"), GitRemote.anonymous(origin.url()));
        a = new StatusWriter(mirrorA);
        b = new StatusWriter(mirrorB);
        assertInstanceOf(CommitOutcome.Committed.class, a.write(change("start")
                .write("status/fleet.yaml", "web@eu-1: Synced\n").write("status/apps/web.yaml", "web: Synced\n")));
    }

    @AfterEach void tearDown() {
        mirrorA.close();
        mirrorB.close();
        origin.close();
    }

    @Test @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentWritersOfDifferentFilesBothKeepTheirFiles() throws Exception {
        StatusRead readA = a.readTip("status/");
        StatusRead readB = b.readTip("status/");
        List<CommitOutcome> outcomes = concurrently(
                () -> a.write(change("a").write("status/apps/web.yaml", "web: Degraded\n").basedOn(readA.files())),
                () -> b.write(change("b").write("status/apps/api.yaml", "api: Synced\n").basedOn(readB.files())));

        outcomes.forEach(o -> assertInstanceOf(CommitOutcome.Committed.class, o));
        assertEquals(Map.of("status/fleet.yaml", "web@eu-1: Synced\n", "status/apps/web.yaml", "web: Degraded\n",
                "status/apps/api.yaml", "api: Synced\n"), origin.files(STATUS));
        assertEquals(3, origin.history(STATUS).size());
    }

    @Test @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentWritersOfTheSameFileLoseNoEntry() throws Exception {
        StatusRead readA = a.readTip("status/");
        StatusRead readB = b.readTip("status/");
        List<CommitOutcome> outcomes = concurrently(
                () -> a.write(addLine(readA, "status/fleet.yaml", "web@eu-2: Synced\n")),
                () -> b.write(addLine(readB, "status/fleet.yaml", "api@eu-1: Synced\n")));

        // One of them got there first; the other was told, with the path, instead of overwriting it.
        assertEquals(1, outcomes.stream().filter(o -> o instanceof CommitOutcome.Committed).count(), outcomes.toString());
        CommitOutcome.Conflict conflict = (CommitOutcome.Conflict) outcomes.stream().filter(o -> o instanceof CommitOutcome.Conflict)
                .findFirst().orElseThrow(() -> new AssertionError("no conflict: " + outcomes));
        assertEquals(new TreeSet<>(List.of("status/fleet.yaml")), conflict.paths());
        assertEquals(origin.tip(STATUS), Optional.of(conflict.tip()));

        // The loser reads again and recomputes its entry on top of the winner's: both entries are there.
        boolean aLost = outcomes.get(0) instanceof CommitOutcome.Conflict;
        StatusWriter loser = aLost ? a : b;
        String entry = aLost ? "web@eu-2: Synced\n" : "api@eu-1: Synced\n";
        assertInstanceOf(CommitOutcome.Committed.class, loser.write(addLine(loser.readTip("status/"), "status/fleet.yaml", entry)));
        String fleet = origin.files(STATUS).get("status/fleet.yaml");
        assertTrue(fleet.contains("web@eu-1: Synced\n") && fleet.contains("web@eu-2: Synced\n") && fleet.contains("api@eu-1: Synced\n"), fleet);
    }

    @Test void aStaleWriterKeepsItsOtherFilesButNeverOverwritesOneChangedSinceItRead() throws Exception {
        StatusRead stale = a.readTip("status/");
        assertInstanceOf(CommitOutcome.Committed.class, b.write(change("b")
                .write("status/apps/web.yaml", "web: Healthy, unhealthySince kept by b\n").basedOn(b.readTip("status/").files())));

        CommitOutcome outcome = a.write(change("a stale").write("status/apps/web.yaml", "web: Healthy\n")
                .write("status/apps/api.yaml", "api: Synced\n").basedOn(stale.files()));

        CommitOutcome.Conflict conflict = assertInstanceOf(CommitOutcome.Conflict.class, outcome);
        assertEquals(new TreeSet<>(List.of("status/apps/web.yaml")), conflict.paths());
        assertEquals("web: Healthy, unhealthySince kept by b\n", origin.files(STATUS).get("status/apps/web.yaml"));
        assertEquals(null, origin.files(STATUS).get("status/apps/api.yaml"), "a conflict writes nothing of the change");
        // A change of files nobody else touched since is re-applied on the moved tip.
        assertInstanceOf(CommitOutcome.Committed.class, a.write(change("a")
                .write("status/apps/api.yaml", "api: Synced\n").basedOn(stale.files())));
        assertEquals("web: Healthy, unhealthySince kept by b\n", origin.files(STATUS).get("status/apps/web.yaml"));
    }

    @Test void aDeleteOfAFileAnotherWriterChangedIsAConflictAndOneOfAFileAlreadyGoneIsNot() throws Exception {
        StatusRead stale = a.readTip("status/");
        assertInstanceOf(CommitOutcome.Committed.class, b.write(change("b").write("status/apps/web.yaml", "web: Deleting\n")
                .delete("status/fleet.yaml").basedOn(b.readTip("status/").files())));

        assertInstanceOf(CommitOutcome.Conflict.class, a.write(change("a").delete("status/apps/web.yaml").basedOn(stale.files())));
        assertInstanceOf(CommitOutcome.Unchanged.class, a.write(change("a").delete("status/fleet.yaml").basedOn(stale.files())));
    }

    @Test void aTipThatAlreadyHoldsTheSameEditIsNoConflict() throws Exception {
        StatusRead stale = a.readTip("status/");
        b.write(change("b").write("status/apps/web.yaml", "web: Healthy\n").basedOn(b.readTip("status/").files()));

        assertInstanceOf(CommitOutcome.Unchanged.class, a.write(change("a").write("status/apps/web.yaml", "web: Healthy\n").basedOn(stale.files())));
    }

    @Test void aFenceThatRefusesPushesNothing() throws Exception {
        StatusWriter fenced = new StatusWriter(mirrorA, STATUS, RetryPolicy.DEFAULT, () -> Optional.of("lease not held"));
        Optional<String> before = origin.tip(STATUS);

        CommitOutcome outcome = fenced.write(change("fenced").write("status/apps/web.yaml", "web: Degraded\n"));

        assertEquals(new CommitOutcome.Fenced("lease not held"), outcome);
        assertEquals(before, origin.tip(STATUS));
        assertInstanceOf(HistoryTrim.Failed.class, fenced.trimHistory(1, "Windlass", "w@example.com"));
    }

    private static BranchChange addLine(StatusRead read, String path, String line) {
        String now = new String(read.files().getOrDefault(path, new byte[0]), StandardCharsets.UTF_8);
        SortedSet<String> lines = new TreeSet<>(now.lines().map(l -> l + "\n").toList());
        lines.add(line);
        return change("add " + line.trim()).write(path, String.join("", lines)).basedOn(read.files());
    }

    private static BranchChange change(String message) {
        return BranchChange.of(message, "Windlass", "windlass@localhost");
    }

    /** Runs both writes at once, released together; outcomes in the order given. */
    private static List<CommitOutcome> concurrently(Callable<CommitOutcome> first, Callable<CommitOutcome> second) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<CommitOutcome>> futures = new ArrayList<>();
            for (Callable<CommitOutcome> write : List.of(first, second)) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return write.call();
                }));
            }
            go.countDown();
            List<CommitOutcome> outcomes = new ArrayList<>();
            for (Future<CommitOutcome> f : futures) outcomes.add(f.get());
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }
}
