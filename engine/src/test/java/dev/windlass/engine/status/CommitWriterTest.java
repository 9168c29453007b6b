package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.windlass.git.LoggedCommit;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class CommitWriterTest {

    @Test
    void namesTheReplicaAndItsShardsOrTheWholeFleet() {
        assertEquals("windlass-1_9f8e7d6c (shards 0,2)", writer("windlass-1_9f8e7d6c", "0,2"));
        assertEquals("windlass-1_9f8e7d6c (shards 11)", writer("windlass-1_9f8e7d6c", "11"));
        assertEquals("host.example.com_1a2b3c4d (unsharded)", writer("host.example.com_1a2b3c4d", "unsharded"));
    }

    @Test
    void whatItWritesItReadsBack() {
        CommitWriter sharded = new CommitWriter("windlass-1_9f8e7d6c", new TreeSet<>(List.of(3, 0, 1)));
        assertEquals("Windlass-Replica: windlass-1_9f8e7d6c\nWindlass-Shards: 0,1,3\n", sharded.trailers());
        assertEquals(sharded.describe(), writer("windlass-1_9f8e7d6c", "0,1,3"));
    }

    @Test
    void anythingItWouldNotWriteIsAnUnknownWriter() {
        // An earlier engine's commit, without the trailers; or with one of them only.
        assertEquals(CommitWriter.UNKNOWN, CommitWriter.describe(commit(Map.of())));
        assertEquals(CommitWriter.UNKNOWN, CommitWriter.describe(commit(Map.of("Windlass-Replica", List.of("a_1")))));
        assertEquals(CommitWriter.UNKNOWN, CommitWriter.describe(commit(Map.of("Windlass-Shards", List.of("0")))));
        // Twice: which one wrote it?
        assertEquals(CommitWriter.UNKNOWN, CommitWriter.describe(commit(Map.of("Windlass-Replica", List.of("a_1", "b_2"),
                "Windlass-Shards", List.of("0")))));
        assertEquals(CommitWriter.UNKNOWN, CommitWriter.describe(commit(Map.of("Windlass-Replica", List.of("a_1"),
                "Windlass-Shards", List.of("0", "1")))));
        for (String shards : List.of("", "all", "0, 2", "2,0", "0,0", "-1", "01", "0,", ",0", "1e3", "12345", "0;1", "unsharded,0")) {
            assertEquals(CommitWriter.UNKNOWN, writer("a_1", shards), "shards '" + shards + "'");
        }
        for (String replica : List.of("", "-a", "a b", "a\tb", "ä_1", "a/b", "x".repeat(254), "<script>")) {
            assertEquals(CommitWriter.UNKNOWN, writer(replica, "0"), "replica '" + replica + "'");
        }
    }

    @Test
    void refusesToWriteWhatItWouldNotReadBack() {
        assertThrows(IllegalArgumentException.class, () -> CommitWriter.unsharded("a b"));
        assertThrows(IllegalArgumentException.class, () -> CommitWriter.unsharded("a\nWindlass-Shards: 9"));
        assertThrows(IllegalArgumentException.class, () -> new CommitWriter("a_1", new TreeSet<>()));
        assertThrows(IllegalArgumentException.class, () -> new CommitWriter("a_1", new TreeSet<>(List.of(-1))));
    }

    private static String writer(String replica, String shards) {
        Map<String, List<String>> trailers = new LinkedHashMap<>();
        trailers.put("Windlass-Replica", List.of(replica));
        trailers.put("Windlass-Shards", List.of(shards));
        return CommitWriter.describe(commit(trailers));
    }

    private static LoggedCommit commit(Map<String, List<String>> trailers) {
        return new LoggedCommit("04b5e240090f9b526df41efbaec25bafe4a4d5d3", Instant.EPOCH, "windlass: something", trailers);
    }
}
