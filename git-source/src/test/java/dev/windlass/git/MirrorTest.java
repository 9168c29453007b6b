package dev.windlass.git;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.source.ChangeSet;
import dev.windlass.policy.source.Snapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MirrorTest {

    @TempDir Path tmp;
    Origin origin;
    Mirror mirror;

    @BeforeEach void setUp() throws Exception {
        origin = Origin.create(tmp);
        mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.anonymous(origin.url()));
    }

    @AfterEach void tearDown() {
        mirror.close();
        origin.close();
    }

    /**
     * A hundred pushes, each fetched at once and followed by a status commit: a pack per fetch and loose objects per
     * commit. The mirror compacts itself on the way, and no fetch or status write fails.
     */
    @Test void fetchesRightAfterEachOfManyFastPushesNeverFail() throws Exception {
        StatusWriter status = new StatusWriter(mirror);
        for (int i = 0; i < 100; i++) {
            String sha = origin.commit("main", Map.of("apps/web/value.yaml", "value: " + i + "\n"), "push " + i);
            mirror.fetch();
            status.write(BranchChange.of("pass " + i, "Windlass", "windlass@localhost").write("status/pass.yaml", "pass: " + i + "\n"));
            assertEquals(java.util.Optional.of(sha), mirror.resolve("main"), "push " + i);
        }
        String after = origin.commit("main", Map.of("apps/web/value.yaml", "value: after\n"), "after");
        mirror.fetch();
        assertEquals(java.util.Optional.of(after), mirror.resolve("main"));
        assertEquals(CommitOutcome.Committed.class, status.write(BranchChange.of("after", "Windlass", "windlass@localhost")
                .write("status/pass.yaml", "pass: after\n")).getClass());

        Housekeeping.Storage storage = mirror.housekeeping().storage();
        assertTrue(storage.packs() < Housekeeping.PACKS_BEFORE_COMPACTING, "101 fetches left " + storage.packs() + " packs");
        assertTrue(mirror.housekeeping().compactions() >= 100 / Housekeeping.PACKS_BEFORE_COMPACTING,
                mirror.storage().toString());
        assertFalse(java.nio.file.Files.exists(tmp.resolve("mirror/gc.pid")), "no background GC ran in the mirror");
        assertEquals(List.of("pass: after\n"), List.of(new String(
                status.readStatus("status/pass.yaml").orElseThrow(), StandardCharsets.UTF_8)));
    }

    /**
     * A fetch that finds nothing new (an idle pass's) creates, changes or deletes no file in the mirror: Git's check for an
     * automatic GC after each fetch once took a lock file there, on a thread of its own, every time.
     */
    @Test void aFetchWithNothingNewWritesNothingInTheMirror() throws Exception {
        origin.commit("main", Map.of("apps/web/app.yaml", "kind: Application\n"), "first");
        mirror.fetch();
        Path dir = tmp.resolve("mirror");
        try (java.nio.file.WatchService watch = dir.getFileSystem().newWatchService()) {
            List<Path> watched = List.of(dir, dir.resolve("refs"), dir.resolve("objects"), dir.resolve("objects/pack"));
            for (Path d : watched) {
                d.register(watch, java.nio.file.StandardWatchEventKinds.ENTRY_CREATE, java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY,
                        java.nio.file.StandardWatchEventKinds.ENTRY_DELETE);
            }
            for (int i = 0; i < 3; i++) assertTrue(mirror.fetch().isEmpty(), "nothing new");
            List<String> events = new ArrayList<>();
            java.nio.file.WatchKey key;
            while ((key = watch.poll(500, java.util.concurrent.TimeUnit.MILLISECONDS)) != null) {
                for (var event : key.pollEvents()) events.add(event.kind() + " " + key.watchable() + "/" + event.context());
                key.reset();
            }
            assertEquals(List.of(), events);
        }
    }

    /** A pull request head force-pushed away is still readable after compactions: a snapshot may be in use. */
    @Test void compactionKeepsWhatNoRefReachesReadable() throws Exception {
        String main = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        String pr = origin.commitOnto(main, "refs/pull/3/head", Map.of("a.yaml", "proposed\n"), "proposal");
        mirror.fetch();
        Snapshot proposal = mirror.snapshot(pr);
        origin.deleteBranch("refs/pull/3/head");
        for (int i = 0; i < Housekeeping.PACKS_BEFORE_COMPACTING + 1; i++) {
            origin.commit("main", Map.of("b.yaml", "b: " + i + "\n"), "push " + i);
            mirror.fetch();
        }

        assertTrue(mirror.housekeeping().compactions() >= 1, mirror.storage().toString());
        assertEquals(Optional.empty(), mirror.resolve("refs/pull/3/head"));
        assertArrayEquals("proposed\n".getBytes(StandardCharsets.UTF_8), proposal.read("a.yaml"));
        assertArrayEquals("proposed\n".getBytes(StandardCharsets.UTF_8), mirror.snapshot(pr).read("a.yaml"));
        assertEquals(Optional.of(main), mirror.resolve(main));
        assertTrue(mirror.has(pr));
        assertFalse(mirror.has("0123456789abcdef0123456789abcdef01234567"), "never fetched");
        assertFalse(mirror.has("not-an-id"));
    }

    /**
     * Status commits and merge previews on other threads while fetches compact the mirror: none of them may fail on
     * a pack or a loose-object directory the compaction removed under it.
     */
    @Test void commitsAndPreviewsDuringCompactionsNeverFail() throws Exception {
        String base = origin.commit("main", Map.of("a.yaml", "a\n"), "base");
        mirror.fetch();
        StatusWriter status = new StatusWriter(mirror);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            Future<Integer> commits = pool.submit(() -> {
                int n = 0;
                while (!done.get()) {
                    CommitOutcome outcome = status.write(BranchChange.of("pass " + n, "Windlass", "windlass@localhost")
                            .write("status/pass.yaml", "pass: " + n + "\n"));
                    assertEquals(CommitOutcome.Committed.class, outcome.getClass(), outcome.toString());
                    n++;
                }
                return n;
            });
            Future<Integer> previews = pool.submit(() -> {
                int n = 0;
                while (!done.get()) {
                    String head = origin.commitOnto(base, "refs/heads/topic", Map.of("t.yaml", "t: " + n + "\n"), "topic");
                    String tip = mirror.resolve("main").orElseThrow();
                    // The head may not be fetched yet; preview only what the mirror has.
                    if (mirror.resolve(head).isPresent()) {
                        assertEquals(MergePreview.Merged.class, mirror.previewMerge(tip, head).getClass());
                    }
                    n++;
                }
                return n;
            });
            for (int i = 0; i < 3 * Housekeeping.PACKS_BEFORE_COMPACTING; i++) {
                origin.commit("main", Map.of("b.yaml", "b: " + i + "\n"), "push " + i);
                mirror.fetch();
            }
            done.set(true);
            assertTrue(commits.get() > 0);
            assertTrue(previews.get() > 0);
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
        assertTrue(mirror.housekeeping().compactions() >= 2, mirror.storage().toString());
    }

    @Test void fetchedSnapshotListsEveryFileAndReadsWhatWasCommitted() throws Exception {
        String sha = origin.commit("main", Map.of(
                "clusters/prod.yaml", "name: prod\n",
                "apps/web/deployment.yaml", "kind: Deployment\n",
                "README.md", "hello\n"), "initial");

        FetchOutcome outcome = mirror.fetch();
        Snapshot snapshot = mirror.snapshot(mirror.resolve("main").orElseThrow());

        assertTrue(outcome.changed("main"));
        assertTrue(outcome.change("main").orElseThrow().created());
        assertEquals(sha, snapshot.commit());
        assertEquals(Set.of("README.md", "apps/web/deployment.yaml", "clusters/prod.yaml"), snapshot.files().keySet());
        assertEquals(origin.blobId(sha, "clusters/prod.yaml"), snapshot.files().get("clusters/prod.yaml"));
        assertEquals("kind: Deployment\n", text(snapshot.read("apps/web/deployment.yaml")));
        assertThrows(NoSuchElementException.class, () -> snapshot.read("missing.yaml"));
    }

    @Test void changesListExactlyTheAddedModifiedAndDeletedPaths() throws Exception {
        String first = origin.commit("main", Map.of("a.yaml", "a: 1\n", "b.yaml", "b: 1\n", "c.yaml", "c: 1\n"), "one");
        Map<String, String> edits = new HashMap<>();
        edits.put("a.yaml", "a: 2\n");
        edits.put("b.yaml", null);
        edits.put("dir/d.yaml", "d: 1\n");
        String second = origin.commit("main", edits, "two");
        mirror.fetch();

        ChangeSet changes = mirror.changes(first, second);

        assertEquals(Set.of("a.yaml", "b.yaml", "dir/d.yaml"), changes.paths());
        assertEquals(first, changes.from());
        assertEquals(second, changes.to());
        assertEquals(Set.of("a.yaml", "c.yaml", "dir/d.yaml"), mirror.changes(null, second).paths());
        assertTrue(mirror.changes(second, second).isEmpty());
    }

    @Test void renameCountsAsBothPaths() throws Exception {
        String first = origin.commit("main", Map.of("old/app.yaml", "x: 1\n", "keep.yaml", "k\n"), "one");
        Map<String, String> rename = new HashMap<>();
        rename.put("old/app.yaml", null);
        rename.put("new/app.yaml", "x: 1\n");
        String second = origin.commit("main", rename, "rename");
        mirror.fetch();

        assertEquals(Set.of("old/app.yaml", "new/app.yaml"), mirror.changes(first, second).paths());
    }

    @Test void resolveAcceptsBranchNamesFullRefsAndShortOrFullShas() throws Exception {
        String sha = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        origin.push(sha, "refs/heads/feature/x");
        mirror.fetch();

        assertEquals(Optional.of(sha), mirror.resolve("main"));
        assertEquals(Optional.of(sha), mirror.resolve("refs/heads/main"));
        assertEquals(Optional.of(sha), mirror.resolve("feature/x"));
        assertEquals(Optional.of(sha), mirror.resolve(sha));
        assertEquals(Optional.of(sha), mirror.resolve(sha.substring(0, 7)));
        assertEquals(Optional.of(sha), mirror.resolve(sha.substring(0, 7).toUpperCase()));
        assertEquals(Optional.empty(), mirror.resolve("nope"));
        assertEquals(Optional.empty(), mirror.resolve(sha.startsWith("0") ? "1111111" : "0000000"));
        // The blob and tree of the commit are objects too, but not commits.
        assertEquals(Optional.empty(), mirror.resolve(origin.blobId(sha, "a.yaml")));
    }

    @Test void secondFetchWithNothingNewReportsNoChange() throws Exception {
        origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        assertFalse(mirror.fetch().isEmpty());

        FetchOutcome again = mirror.fetch();

        assertTrue(again.isEmpty());
        assertFalse(again.changed("main"));
    }

    /**
     * A fetch that finds the remote's refs where the last one left them moves nothing, but only while no ref was written
     * in the mirror since: here main is read on its own at a new commit, then force-pushed back, and the next fetch of
     * every branch still brings it back.
     */
    @Test void aBranchReadOnItsOwnThenPushedBackIsBroughtBack() throws Exception {
        String first = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        mirror.fetch();
        String second = origin.commit("main", Map.of("a.yaml", "b\n"), "two");
        assertEquals(Optional.of(org.eclipse.jgit.lib.ObjectId.fromString(second)), mirror.sync().fetchRef("refs/heads/main"));
        origin.push(first, "refs/heads/main");

        FetchOutcome back = mirror.fetch();

        assertEquals(Optional.of(new RefChange("refs/heads/main", Optional.of(second), Optional.of(first))), back.change("main"));
        assertEquals(Optional.of(first), mirror.resolve("main"));
        assertTrue(mirror.fetch().isEmpty(), "nothing new after that");
    }

    @Test void statusBranchCommitsAreNotConfigChanges() throws Exception {
        origin.commit("main", Map.of("a.yaml", "a\n"), "config");
        mirror.fetch();
        origin.commit(StatusWriter.DEFAULT_BRANCH, Map.of("status/x.yaml", "ok\n"), "status");

        FetchOutcome outcome = mirror.fetch();

        assertFalse(outcome.changed("main"));
        assertTrue(outcome.changed(StatusWriter.DEFAULT_BRANCH));
        assertTrue(outcome.changed("refs/heads/" + StatusWriter.DEFAULT_BRANCH));
    }

    @Test void fetchTracksPullRequestHeadsAndPrunesDeletedRefs() throws Exception {
        String main = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        String pr = origin.commit("pr-source", Map.of("a.yaml", "b\n"), "proposal");
        origin.push(pr, "refs/pull/7/head");
        FetchOutcome first = mirror.fetch();
        assertEquals(Set.of(7), first.pullRequests().keySet());
        assertEquals(Optional.of(pr), mirror.resolve("refs/pull/7/head"));
        assertEquals(Map.of("main", main, "pr-source", pr), mirror.listBranches());

        origin.deleteBranch("refs/heads/pr-source");
        origin.deleteBranch("refs/pull/7/head");
        FetchOutcome second = mirror.fetch();

        assertTrue(second.change("pr-source").orElseThrow().deleted());
        assertTrue(second.pullRequests().get(7).deleted());
        assertEquals(Map.of("main", main), mirror.listBranches());
        assertEquals(Optional.empty(), mirror.resolve("refs/pull/7/head"));
    }

    @Test void reopenedMirrorKeepsWhatItFetched() throws Exception {
        String sha = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        mirror.fetch();
        mirror.close();

        mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.anonymous(origin.url()));

        assertEquals(Optional.of(sha), mirror.resolve("main"));
        assertTrue(mirror.fetch().isEmpty());
    }

    @Test void snapshotReadsAreSafeFromManyThreads() throws Exception {
        Map<String, String> files = new HashMap<>();
        for (int i = 0; i < 50; i++) files.put("apps/app-" + i + ".yaml", "replicas: " + i + "\n");
        origin.commit("main", files, "many");
        mirror.fetch();
        Snapshot snapshot = mirror.snapshot(mirror.resolve("main").orElseThrow());

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 20; round++) {
                        for (Map.Entry<String, String> f : files.entrySet()) {
                            assertArrayEquals(f.getValue().getBytes(StandardCharsets.UTF_8), snapshot.read(f.getKey()));
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) assertTrue(result.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void unreachableRemoteFailsWithTheUrlInTheMessage() throws Exception {
        String missing = tmp.resolve("does-not-exist.git").toUri().toString();
        try (Mirror broken = Mirror.open(tmp.resolve("broken"), GitRemote.anonymous(missing))) {
            RemoteAccessException e = assertThrows(RemoteAccessException.class, broken::fetch);
            assertTrue(e.getMessage().contains("does-not-exist.git"), e.getMessage());
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A symbolic link is listed apart from the files, whatever it points at, and nothing is read through it. */
    @Test void aSymlinkIsListedApartFromTheFiles() throws Exception {
        java.nio.file.Files.writeString(tmp.resolve("outside.yaml"), "kind: Secret\n");
        origin.commit("main", Map.of("apps/web/manifests/cm.yaml", "kind: ConfigMap\n"), "a file");
        String sha = origin.commitSymlink("main", "apps/web/manifests/secret.yaml", tmp.resolve("outside.yaml").toString(), "a link out of the repo");
        mirror.fetch();
        Snapshot s = mirror.snapshot(sha);
        assertEquals(Set.of("apps/web/manifests/cm.yaml"), s.files().keySet());
        assertEquals(Set.of("apps/web/manifests/secret.yaml"), s.symlinks());
        assertThrows(NoSuchElementException.class, () -> s.read("apps/web/manifests/secret.yaml"));
    }
}
