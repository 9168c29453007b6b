package dev.windlass.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusWriterTest {

    static final String STATUS = StatusWriter.DEFAULT_BRANCH;

    @TempDir Path tmp;
    Origin origin;
    Mirror mirror;
    StatusWriter writer;

    @BeforeEach void setUp() throws Exception {
        origin = Origin.create(tmp);
        origin.commit("main", Map.of("clusters/prod.yaml", "name: prod\n"), "config");
        mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.anonymous(origin.url()));
        writer = new StatusWriter(mirror);
    }

    @AfterEach void tearDown() {
        mirror.close();
        origin.close();
    }

    @Test void firstWriteCreatesAnOrphanBranchWithTheGivenMessageAndAuthor() throws Exception {
        String message = "status: web synced\n\nWindlass-Cluster: prod\nWindlass-Commit: abc123\n";
        CommitOutcome outcome = writer.write(BranchChange.of(message, "Windlass Engine", "engine@windlass.dev")
                .write("status/apps/web.yaml", "phase: Synced\n"));

        CommitOutcome.Committed committed = assertInstanceOf(CommitOutcome.Committed.class, outcome);
        assertEquals(1, committed.attempts());
        assertEquals(Optional.of(committed.commit()), origin.tip(STATUS));
        RevCommit commit = origin.commitAt(committed.commit());
        assertEquals(0, commit.getParentCount());
        assertEquals(message, commit.getFullMessage());
        assertEquals("Windlass Engine", commit.getAuthorIdent().getName());
        assertEquals("engine@windlass.dev", commit.getAuthorIdent().getEmailAddress());
        assertEquals(List.of("abc123"), commit.getFooterLines("Windlass-Commit"));
        // Only the status file: the orphan shares nothing with the config branch.
        assertEquals(Map.of("status/apps/web.yaml", "phase: Synced\n"), origin.files(STATUS));
    }

    @Test void laterWritesBuildOnTopAndKeepEarlierFiles() throws Exception {
        String first = committed(writer.write(change("one").write("status/a.yaml", "a: 1\n")));
        String second = committed(writer.write(change("two").write("status/b.yaml", "b: 1\n")));

        assertEquals(Map.of("status/a.yaml", "a: 1\n", "status/b.yaml", "b: 1\n"), origin.files(STATUS));
        assertEquals(first, origin.commitAt(second).getParent(0).name());
        assertEquals(2, origin.history(STATUS).size());
    }

    @Test void identicalContentIsUnchangedAndCreatesNoCommit() throws Exception {
        String first = committed(writer.write(change("one").write("status/a.yaml", "a: 1\n")));

        CommitOutcome again = writer.write(change("again").write("status/a.yaml", "a: 1\n"));

        assertEquals(new CommitOutcome.Unchanged(Optional.of(first)), again);
        assertEquals(Optional.of(first), origin.tip(STATUS));
        assertEquals(1, origin.history(STATUS).size());
    }

    @Test void nothingToWriteOnAMissingBranchCreatesNothing() throws Exception {
        CommitOutcome outcome = writer.write(change("prune").delete("status/gone.yaml"));

        assertEquals(new CommitOutcome.Unchanged(Optional.empty()), outcome);
        assertEquals(Optional.empty(), origin.tip(STATUS));
    }

    @Test void deletesRemoveFilesAndWholeDirectories() throws Exception {
        writer.write(change("seed").write("status/apps/a/x.yaml", "x\n").write("status/apps/a/y.yaml", "y\n")
                .write("status/apps/b.yaml", "b\n").write("status/keep.yaml", "k\n"));

        writer.write(change("prune").delete("status/apps/a").delete("status/apps/b.yaml"));

        assertEquals(Set.of("status/keep.yaml"), origin.files(STATUS).keySet());
    }

    @Test void aChangeOfManyFilesIsWrittenAsOnePackAndASmallOneAsLooseObjects() throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < BranchCommitter.PACKED_WRITES; i++) {
            files.put("status/apps/app-" + i + ".yaml", ("app: app-" + i + "\n").getBytes(StandardCharsets.UTF_8));
        }
        mirror.fetch();
        MirrorStorage before = mirror.storage();

        committed(writer.write(new BranchChange(files, Set.of(), "first sync", "Windlass", "windlass@example.com")));
        MirrorStorage afterMany = mirror.storage();
        committed(writer.write(change("one app").write("status/apps/app-7.yaml", "app: changed\n")));
        MirrorStorage afterOne = mirror.storage();

        assertEquals(before.packs() + 1, afterMany.packs(), before + " -> " + afterMany);
        assertEquals(before.looseObjects(), afterMany.looseObjects(), before + " -> " + afterMany);
        // One blob, its three directories' trees and the commit.
        assertEquals(afterMany.looseObjects() + 5, afterOne.looseObjects(), afterMany + " -> " + afterOne);
        assertEquals(afterMany.packs(), afterOne.packs(), afterMany + " -> " + afterOne);
        Map<String, String> recorded = origin.files(STATUS);
        assertEquals(BranchCommitter.PACKED_WRITES, recorded.size());
        int last = BranchCommitter.PACKED_WRITES - 1;
        assertEquals("app: app-" + last + "\n", recorded.get("status/apps/app-" + last + ".yaml"));
        assertEquals("app: changed\n", recorded.get("status/apps/app-7.yaml"));
        assertEquals("app: changed\n", text(writer.readStatus("status/apps/app-7.yaml").orElseThrow()));
        assertEquals("app: app-0\n", text(writer.readStatus("status/apps/app-0.yaml").orElseThrow()));
    }

    @Test void writesAreAppliedOnTheRemoteTipEvenWhenAnotherMirrorWroteMeanwhile() throws Exception {
        writer.write(change("mine").write("status/mine.yaml", "1\n"));
        try (Mirror other = Mirror.open(tmp.resolve("other"), GitRemote.anonymous(origin.url()))) {
            new StatusWriter(other).write(change("theirs").write("status/theirs.yaml", "1\n"));
        }

        writer.write(change("mine again").write("status/mine.yaml", "2\n"));

        assertEquals(Map.of("status/mine.yaml", "2\n", "status/theirs.yaml", "1\n"), origin.files(STATUS));
    }

    @Test void readStatusSeesTheRemoteTipAndIsEmptyBeforeTheFirstWrite() throws Exception {
        assertEquals(Optional.empty(), writer.readStatus("status/a.yaml"));
        assertTrue(writer.readStatusFiles("status/").isEmpty());
        try (Mirror other = Mirror.open(tmp.resolve("other"), GitRemote.anonymous(origin.url()))) {
            new StatusWriter(other).write(change("theirs").write("status/apps/a.yaml", "a\n")
                    .write("status/apps/b.yaml", "b\n").write("status/other.yaml", "o\n"));
        }

        assertEquals("a\n", text(writer.readStatus("status/apps/a.yaml").orElseThrow()));
        assertEquals(Optional.empty(), writer.readStatus("status/apps/missing.yaml"));
        assertEquals(Set.of("status/apps/a.yaml", "status/apps/b.yaml"), writer.readStatusFiles("status/apps/").keySet());
    }

    @Test void ownStatusCommitsDoNotLookLikeConfigChanges() throws Exception {
        mirror.fetch();
        writer.write(change("status").write("status/a.yaml", "a\n"));
        try (Mirror other = Mirror.open(tmp.resolve("other"), GitRemote.anonymous(origin.url()))) {
            new StatusWriter(other).write(change("theirs").write("status/b.yaml", "b\n"));
        }

        FetchOutcome outcome = mirror.fetch();

        assertTrue(outcome.changed(STATUS));
        assertFalse(outcome.changed("main"));
    }

    @Test void historyWithinTwiceItsLimitIsLeftAlone() throws Exception {
        for (int i = 0; i < 20; i++) writer.write(change("pass " + i).write("status/a.yaml", "a: " + i + "\n"));
        String tip = origin.tip(STATUS).orElseThrow();

        assertEquals(new HistoryTrim.Within(20), writer.trimHistory(10, "Windlass", "windlass@localhost"));
        assertEquals(Optional.of(tip), origin.tip(STATUS));
    }

    @Test void trimKeepsTheNewestCommitsAsTheyWereOnARootThatSaysWhatWasDropped() throws Exception {
        for (int i = 0; i < 25; i++) {
            writer.write(change("pass " + i).write("status/a.yaml", "a: " + i + "\n").write("status/p" + (i % 3) + ".yaml", i + "\n"));
        }
        List<RevCommit> before = origin.history(STATUS);
        Map<String, String> files = origin.files(STATUS);

        HistoryTrim.Trimmed trimmed = assertInstanceOf(HistoryTrim.Trimmed.class,
                writer.trimHistory(10, "Windlass", "windlass@localhost", "Windlass-Replica: engine-0_1a2b3c4d\nWindlass-Shards: unsharded\n"));

        assertEquals(new HistoryTrim.Trimmed(15, 10, origin.tip(STATUS).orElseThrow()), trimmed);
        assertEquals(files, origin.files(STATUS));
        List<RevCommit> after = origin.history(STATUS);
        assertEquals(11, after.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(before.get(i).getFullMessage(), after.get(i).getFullMessage());
            assertEquals(before.get(i).getTree(), after.get(i).getTree());
            assertEquals(before.get(i).getAuthorIdent(), after.get(i).getAuthorIdent());
        }
        RevCommit root = after.get(10);
        assertEquals(0, root.getParentCount());
        assertEquals(before.get(10).getTree(), root.getTree(), "the root holds the state the dropped commits ended with");
        assertTrue(root.getFullMessage().startsWith("status history before "), root.getFullMessage());
        assertTrue(root.getFullMessage().contains("trimmed (15 commits)"), root.getFullMessage());
        assertTrue(root.getFullMessage().contains("(\"pass 0\") to"), root.getFullMessage());
        assertTrue(root.getFullMessage().contains("(\"pass 14\")."), root.getFullMessage());
        assertEquals(List.of("engine-0_1a2b3c4d"), root.getFooterLines("Windlass-Replica"), "the trimmer named, as trailers:\n" + root.getFullMessage());
        assertEquals(List.of("unsharded"), root.getFooterLines("Windlass-Shards"), root.getFullMessage());

        // Writing goes on from the trimmed tip.
        writer.write(change("pass 25").write("status/a.yaml", "a: 25\n"));
        assertEquals(12, origin.history(STATUS).size());
        assertEquals(trimmed.newTip(), origin.history(STATUS).get(1).name());
    }

    @Test void aTrimNeverDropsACommitAnotherWriterMadeMeanwhile() throws Exception {
        for (int i = 0; i < 25; i++) writer.write(change("pass " + i).write("status/a.yaml", "a: " + i + "\n"));
        mirror.sync().fetchRef(Mirror.branchRef(STATUS));
        // Another engine commits between this mirror's fetch and its push: the lease must catch it.
        String theirs;
        try (Mirror other = Mirror.open(tmp.resolve("other"), GitRemote.anonymous(origin.url()))) {
            theirs = committed(new StatusWriter(other).write(change("theirs").write("status/theirs.yaml", "t\n")));
        }
        RemoteRefUpdate lost = mirror.sync().pushWithLease(Mirror.branchRef(STATUS),
                Optional.of(mirror.repository().resolve(Mirror.branchRef(STATUS))),
                mirror.repository().resolve(Mirror.branchRef(STATUS) + "~5"), true);
        assertEquals(RemoteRefUpdate.Status.REJECTED_REMOTE_CHANGED, lost.getStatus());
        assertEquals(Optional.of(theirs), origin.tip(STATUS));

        // A trim starts from the remote's tip, so it keeps their commit.
        assertInstanceOf(HistoryTrim.Trimmed.class, writer.trimHistory(10, "Windlass", "windlass@localhost"));
        assertEquals("theirs", origin.history(STATUS).get(0).getFullMessage());
        assertEquals("t\n", origin.files(STATUS).get("status/theirs.yaml"));
    }

    @Test void unreachableRemoteIsAFailedOutcome() throws Exception {
        String missing = tmp.resolve("missing.git").toUri().toString();
        try (Mirror broken = Mirror.open(tmp.resolve("broken"), GitRemote.anonymous(missing))) {
            CommitOutcome outcome = new StatusWriter(broken).write(change("x").write("status/a.yaml", "a\n"));

            CommitOutcome.Failed failed = assertInstanceOf(CommitOutcome.Failed.class, outcome);
            assertTrue(failed.reason().contains("missing.git"), failed.reason());
        }
    }

    static BranchChange change(String message) {
        return BranchChange.of(message, "Windlass", "windlass@example.com");
    }

    static String committed(CommitOutcome outcome) {
        return assertInstanceOf(CommitOutcome.Committed.class, outcome).commit();
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A writer killed in the middle of updating the status branch of an origin on this machine leaves its ref locked. */
    @Test void aRefLockLeftByAWriterThatDiedIsRemovedAndTheNextStatusCommitLands() throws Exception {
        writer.write(BranchChange.of("first", "Windlass Engine", "engine@windlass.dev").write("status/apps/web.yaml", "phase: Synced\n"));
        Path lock = leftBehindLock(Instant.now().minus(Duration.ofMinutes(5)));

        CommitOutcome outcome = writer.write(BranchChange.of("second", "Windlass Engine", "engine@windlass.dev")
                .write("status/apps/web.yaml", "phase: Degraded\n"));

        CommitOutcome.Committed committed = assertInstanceOf(CommitOutcome.Committed.class, outcome);
        assertEquals(Optional.of(committed.commit()), origin.tip(STATUS));
        assertEquals(Map.of("status/apps/web.yaml", "phase: Degraded\n"), origin.files(STATUS));
        assertFalse(Files.exists(lock));
    }

    /** A lock only just taken may be another writer's update going on: it is left alone, and the push refused. */
    @Test void aRefLockTakenJustNowIsLeftToItsWriter() throws Exception {
        CommitOutcome.Committed first = assertInstanceOf(CommitOutcome.Committed.class,
                writer.write(BranchChange.of("first", "Windlass Engine", "engine@windlass.dev").write("status/apps/web.yaml", "phase: Synced\n")));
        Path lock = leftBehindLock(Instant.now());
        StatusWriter quick = new StatusWriter(mirror, STATUS, new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1)));

        CommitOutcome outcome = quick.write(BranchChange.of("second", "Windlass Engine", "engine@windlass.dev")
                .write("status/apps/web.yaml", "phase: Degraded\n"));

        assertInstanceOf(CommitOutcome.Failed.class, outcome);
        assertEquals(Optional.of(first.commit()), origin.tip(STATUS));
        assertTrue(Files.exists(lock));
    }

    /** The lock file Git takes on the status branch of the bare origin, made {@code when}. */
    private Path leftBehindLock(Instant when) throws IOException {
        Path lock = origin.bareDir.resolve("refs/heads/" + STATUS + ".lock");
        Files.createDirectories(lock.getParent());
        Files.writeString(lock, origin.tip(STATUS).orElseThrow() + "\n");
        Files.setLastModifiedTime(lock, FileTime.from(when));
        return lock;
    }
}
