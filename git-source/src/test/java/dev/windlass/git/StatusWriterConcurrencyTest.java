package dev.windlass.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Several engines, each with its own mirror, writing status to one remote at the same time. */
class StatusWriterConcurrencyTest {

    static final int WRITERS = 5;
    static final int WRITES_EACH = 5;
    // Writers here re-write the moment they succeed, which starves whoever is backing off far more than engines
    // writing every few seconds would; the budget is sized for that worst case (observed: up to 9 attempts).
    static final RetryPolicy PATIENT = new RetryPolicy(40, Duration.ofMillis(25), Duration.ofSeconds(1));

    @TempDir Path tmp;

    @Test @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void concurrentWritersLoseNoEntryAndNoCommit() throws Exception {
        try (Origin origin = Origin.create(tmp)) {
            origin.commit("main", Map.of("clusters/prod.yaml", "prod\n"), "config");
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            List<Future<List<CommitOutcome>>> results = new ArrayList<>();
            try {
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    results.add(pool.submit(() -> {
                        try (Mirror mirror = Mirror.open(tmp.resolve("mirror-" + writer),
                                GitRemote.anonymous(origin.url()))) {
                            StatusWriter status = new StatusWriter(mirror, StatusWriter.DEFAULT_BRANCH, PATIENT);
                            List<CommitOutcome> outcomes = new ArrayList<>();
                            start.await();
                            for (int count = 1; count <= WRITES_EACH; count++) {
                                outcomes.add(status.write(BranchChange.of(
                                        "writer " + writer + " count " + count, "writer-" + writer, "w@example.com")
                                        .write(file(writer), "counter: " + count + "\n")));
                            }
                            return outcomes;
                        }
                    }));
                }
                start.countDown();
                for (Future<List<CommitOutcome>> result : results) {
                    for (CommitOutcome outcome : result.get()) assertInstanceOf(CommitOutcome.Committed.class, outcome);
                }
            } finally {
                pool.shutdownNow();
            }

            Map<String, String> expected = new TreeMap<>();
            for (int w = 0; w < WRITERS; w++) expected.put(file(w), "counter: " + WRITES_EACH + "\n");
            assertEquals(expected, origin.files(StatusWriter.DEFAULT_BRANCH));
            List<RevCommit> history = origin.history(StatusWriter.DEFAULT_BRANCH);
            assertEquals(WRITERS * WRITES_EACH, history.size());
            assertTrue(history.stream().allMatch(c -> c.getParentCount() <= 1), "history is linear");
            assertEquals(1, history.stream().filter(c -> c.getParentCount() == 0).count());
        }
    }

    static String file(int writer) {
        return "status/apps/writer-" + writer + ".yaml";
    }
}
