package dev.windlass.git;

import static dev.windlass.git.StatusWriterTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merge previews, pull request heads and the ancestry queries that recognise merged review heads. */
class MergePreviewTest {

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

    @Test void cleanMergeOfNonOverlappingChangesHasBothSides() throws Exception {
        String fork = origin.commit("main", Map.of("a.yaml", "a: 1\n", "b.yaml", "b: 1\n"), "one");
        String main = origin.commit("main", Map.of("a.yaml", "a: 2\n"), "main moves on");
        String head = origin.commitOnto(fork, "refs/heads/feature", Map.of("b.yaml", "b: 2\n", "c.yaml", "c: 1\n"),
                "feature");
        mirror.fetch();
        Map<String, String> refsBefore = refs();

        MergePreview.Merged merged = assertInstanceOf(MergePreview.Merged.class, mirror.previewMerge(main, head));

        assertFalse(merged.fastForward());
        assertNotEquals(main, merged.commit());
        assertNotEquals(head, merged.commit());
        var snapshot = mirror.snapshot(merged.commit());
        assertEquals(Set.of("a.yaml", "b.yaml", "c.yaml"), snapshot.files().keySet());
        assertEquals("a: 2\n", text(snapshot.read("a.yaml")));
        assertEquals("b: 2\n", text(snapshot.read("b.yaml")));
        assertEquals("c: 1\n", text(snapshot.read("c.yaml")));
        assertEquals(Set.of("b.yaml", "c.yaml"), mirror.changes(main, merged.commit()).paths());
        assertEquals(merged.tree(), mirror.treeOf(merged.commit()));
        assertEquals(refsBefore, refs(), "a preview moves no ref");
        assertFalse(refs().containsValue(merged.commit()));

        RevCommit commit = parse(merged.commit());
        assertEquals(List.of(main, head), List.of(commit.getParent(0).name(), commit.getParent(1).name()));
        assertEquals("Merge " + head.substring(0, 7) + " into " + main.substring(0, 7) + " (review preview)",
                commit.getFullMessage());
        for (PersonIdent who : List.of(commit.getAuthorIdent(), commit.getCommitterIdent())) {
            assertEquals("Windlass", who.getName());
            assertEquals("windlass@localhost", who.getEmailAddress());
            assertEquals(Instant.EPOCH, who.getWhenAsInstant());
            assertEquals(0, who.getZoneOffset().getTotalSeconds());
        }
        assertEquals("Windlass <windlass@localhost>", snapshot.author());
    }

    @Test void editsToDifferentLinesOfOneFileMergeIntoNewContent() throws Exception {
        String fork = origin.commit("main", Map.of("app.yaml", "replicas: 1\nimage: web:1\nport: 80\n"), "one");
        String main = origin.commit("main", Map.of("app.yaml", "replicas: 3\nimage: web:1\nport: 80\n"), "scale");
        String head = origin.commitOnto(fork, "refs/pull/4/head",
                Map.of("app.yaml", "replicas: 1\nimage: web:1\nport: 8080\n"), "port");
        mirror.fetch();

        MergePreview.Merged merged = assertInstanceOf(MergePreview.Merged.class, mirror.previewMerge(main, head));

        // The merged blob exists in neither parent, so reading it proves the merger's objects were flushed.
        String content = text(mirror.snapshot(merged.commit()).read("app.yaml"));
        assertEquals("replicas: 3\nimage: web:1\nport: 8080\n", content);
    }

    @Test void theSameBaseAndHeadAlwaysGiveTheSameCommit() throws Exception {
        String fork = origin.commit("main", Map.of("a.yaml", "a: 1\n"), "one");
        String main = origin.commit("main", Map.of("a.yaml", "a: 2\n"), "two");
        String head = origin.commitOnto(fork, "refs/heads/feature", Map.of("b.yaml", "b\n"), "feature");
        mirror.fetch();

        MergePreview first = mirror.previewMerge(main, head);
        MergePreview again = mirror.previewMerge(main, head);

        assertEquals(first, again);
        // Even a mirror in another directory, as another engine replica would have, computes the same commit.
        try (Mirror other = Mirror.open(tmp.resolve("other"), GitRemote.anonymous(origin.url()))) {
            other.fetch();
            assertEquals(first, other.previewMerge(main, head));
        }
    }

    @Test void concurrentPreviewsOfTheSamePairAgree() throws Exception {
        String fork = origin.commit("main", Map.of("app.yaml", "replicas: 1\nimage: web\nport: 80\n"), "one");
        String main = origin.commit("main", Map.of("app.yaml", "replicas: 2\nimage: web\nport: 80\n"), "two");
        String head = origin.commitOnto(fork, "refs/heads/feature",
                Map.of("app.yaml", "replicas: 1\nimage: web\nport: 81\n"), "feature");
        mirror.fetch();

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<MergePreview>> previews = new ArrayList<>();
            for (int i = 0; i < 8; i++) previews.add(pool.submit(() -> mirror.previewMerge(main, head)));
            Set<MergePreview> distinct = new HashSet<>();
            for (Future<MergePreview> preview : previews) distinct.add(preview.get());
            MergePreview.Merged merged = assertInstanceOf(MergePreview.Merged.class, distinct.iterator().next());
            assertEquals(1, distinct.size());
            String content = text(mirror.snapshot(merged.commit()).read("app.yaml"));
            assertEquals("replicas: 2\nimage: web\nport: 81\n", content);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void headThatContainsTheBaseFastForwardsToItself() throws Exception {
        String main = origin.commit("main", Map.of("a.yaml", "a: 1\n"), "one");
        String head = origin.commitOnto(main, "refs/heads/feature", Map.of("a.yaml", "a: 2\n"), "feature");
        mirror.fetch();

        assertEquals(new MergePreview.Merged(head, mirror.treeOf(head), true), mirror.previewMerge(main, head));
    }

    @Test void headAlreadyInTheBaseIsUpToDate() throws Exception {
        String old = origin.commit("main", Map.of("a.yaml", "a: 1\n"), "one");
        String main = origin.commit("main", Map.of("a.yaml", "a: 2\n"), "two");
        mirror.fetch();

        assertEquals(new MergePreview.UpToDate(main), mirror.previewMerge(main, old));
        assertEquals(new MergePreview.UpToDate(main), mirror.previewMerge(main, main));
    }

    @Test void conflictsListEveryConflictingPathSorted() throws Exception {
        String fork = origin.commit("main", Map.of(
                "z.yaml", "z: 1\n", "apps/web.yaml", "image: web:1\n", "gone.yaml", "g: 1\n", "calm.yaml", "c: 1\n"),
                "one");
        Map<String, String> mainEdits = new HashMap<>();
        mainEdits.put("z.yaml", "z: 2\n");
        mainEdits.put("apps/web.yaml", "image: web:2\n");
        mainEdits.put("gone.yaml", null);
        String main = origin.commit("main", mainEdits, "main");
        String head = origin.commitOnto(fork, "refs/pull/9/head", Map.of(
                "z.yaml", "z: 3\n", "apps/web.yaml", "image: web:3\n", "gone.yaml", "g: 2\n", "calm.yaml", "c: 2\n"),
                "review");
        mirror.fetch();

        MergePreview preview = mirror.previewMerge(main, head);

        assertEquals(new MergePreview.Conflicted(List.of("apps/web.yaml", "gone.yaml", "z.yaml")), preview);
    }

    @Test void conflictOnTheSameLineNamesThatPath() throws Exception {
        String fork = origin.commit("main", Map.of("a/b.yaml", "x: 1\n", "other.yaml", "o\n"), "one");
        String main = origin.commit("main", Map.of("a/b.yaml", "x: 2\n"), "main");
        String head = origin.commitOnto(fork, "refs/heads/feature", Map.of("a/b.yaml", "x: 3\n"), "feature");
        mirror.fetch();

        assertEquals(new MergePreview.Conflicted(List.of("a/b.yaml")), mirror.previewMerge(main, head));
        assertEquals(main, mirror.resolve("main").orElseThrow(), "a failed preview moves no ref either");
    }

    @Test void isAncestorFollowsHistoryOnly() throws Exception {
        String first = origin.commit("main", Map.of("a.yaml", "a: 1\n"), "one");
        String second = origin.commit("main", Map.of("a.yaml", "a: 2\n"), "two");
        String side = origin.commitOnto(first, "refs/heads/side", Map.of("b.yaml", "b\n"), "side");
        mirror.fetch();

        assertTrue(mirror.isAncestor(first, second));
        assertTrue(mirror.isAncestor(second, second));
        assertTrue(mirror.isAncestor(first, side));
        assertFalse(mirror.isAncestor(second, first));
        assertFalse(mirror.isAncestor(side, second));
        assertFalse(mirror.isAncestor(second, side));
    }

    @Test void mergedReviewHeadIsAnAncestorOfThePreviewMergeCommit() throws Exception {
        String fork = origin.commit("main", Map.of("a.yaml", "a: 1\n"), "one");
        String main = origin.commit("main", Map.of("a.yaml", "a: 2\n"), "two");
        String head = origin.commitOnto(fork, "refs/heads/feature", Map.of("b.yaml", "b\n"), "feature");
        mirror.fetch();
        String merge = ((MergePreview.Merged) mirror.previewMerge(main, head)).commit();

        assertTrue(mirror.isAncestor(head, merge));
        assertTrue(mirror.isAncestor(main, merge));
        assertFalse(mirror.isAncestor(merge, main));
    }

    @Test void commitsBetweenListsBothSidesOfAMergeNewestFirstAndStopsAtTheLimit() throws Exception {
        String fork = origin.commit("main", Map.of("a.yaml", "a: 1\n"), "one");
        String main = origin.commit("main", Map.of("a.yaml", "a: 2\n"), "main");
        String f1 = origin.commitOnto(fork, "refs/heads/feature", Map.of("b.yaml", "b: 1\n"), "f1");
        String f2 = origin.commitOnto(f1, "refs/heads/feature", Map.of("b.yaml", "b: 2\n"), "f2");
        mirror.fetch();
        String merge = ((MergePreview.Merged) mirror.previewMerge(main, f2)).commit();

        List<String> all = mirror.commitsBetween(fork, merge, 10);

        assertEquals(Set.of(merge, main, f1, f2), Set.copyOf(all));
        assertEquals(4, all.size());
        assertEquals(merge, all.get(0));
        assertTrue(all.indexOf(f2) < all.indexOf(f1), "a child comes before its parent: " + all);
        assertEquals(all.subList(0, 2), mirror.commitsBetween(fork, merge, 2));
        assertEquals(List.of(), mirror.commitsBetween(fork, merge, 0));
        assertEquals(List.of(), mirror.commitsBetween(merge, main, 10));
        assertEquals(List.of(f2, f1), mirror.commitsBetween(main, f2, 10));
        assertEquals(List.of(main, fork), mirror.commitsBetween(null, main, 10));
        assertEquals(Set.of(merge, main, f1, f2, fork), Set.copyOf(mirror.commitsBetween(null, merge, 10)));
        // The preview's epoch-0 commit time must not make the walk list its ancestors as new.
        String later = origin.commit("main", Map.of("a.yaml", "a: 3\n"), "later");
        mirror.fetch();
        assertEquals(List.of(later), mirror.commitsBetween(merge, later, 10));
    }

    @Test void logListsTheCommitsThatChangedAPathNewestFirstWithTheirTrailers() throws Exception {
        String one = origin.commit("status", Map.of("status/apps/web.yaml", "web: 1\n"), "windlass: web one\n\nbody\n\nWindlass-Event: Sync\n"
                + "Windlass-Replica: a_1\n");
        origin.commit("status", Map.of("status/apps/api.yaml", "api: 1\n"), "windlass: api\n\nWindlass-Event: Sync\n");
        String two = origin.commit("status", Map.of("status/apps/web.yaml", "web: 2\n"), "windlass: web two\n\nWindlass-Event: Failover\n"
                + "Windlass-Event: Sync\nWindlass-Replica: b_2\nWindlass-Shards: 0,2\n");
        String three = origin.commit("status", Map.of("status/apps/web.yaml", "web: 3\n"), "windlass: web three, no trailers");
        mirror.fetch();

        List<LoggedCommit> log = mirror.log("status", "status/apps/web.yaml", 10);

        assertEquals(List.of(three, two, one), log.stream().map(LoggedCommit::id).toList(), "only the commits that changed the file");
        assertEquals("windlass: web two", log.get(1).subject());
        assertEquals(List.of("Failover", "Sync"), log.get(1).trailer("Windlass-Event"));
        assertEquals(List.of("b_2"), log.get(1).trailer("Windlass-Replica"));
        assertEquals(List.of("0,2"), log.get(1).trailer("Windlass-Shards"));
        assertEquals(List.of(), log.get(0).trailer("Windlass-Event"), "a message without trailers has none");
        assertEquals(List.of("a_1"), log.get(2).trailer("Windlass-Replica"));
        assertEquals(origin.commitAt(two).getCommitTime(), log.get(1).time().getEpochSecond());
        assertEquals(List.of(three), mirror.log("status", "status/apps/web.yaml", 1).stream().map(LoggedCommit::id).toList());
        assertEquals(List.of(), mirror.log("no-such-branch", "status/apps/web.yaml", 10));
    }

    @Test void treeOfIsTheCommitsRootTree() throws Exception {
        String sha = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        String sameFiles = origin.commitOnto(sha, "refs/heads/empty-change", Map.of(), "no changes");
        mirror.fetch();

        assertEquals(origin.commitAt(sha).getTree().name(), mirror.treeOf(sha));
        assertEquals(mirror.treeOf(sha), mirror.treeOf(sameFiles));
    }

    @Test void listPullHeadsAfterFetch() throws Exception {
        String main = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        String seven = origin.commitOnto(main, "refs/pull/7/head", Map.of("a.yaml", "seven\n"), "pr 7");
        String twelve = origin.commitOnto(main, "refs/pull/12/head", Map.of("a.yaml", "twelve\n"), "pr 12");
        assertEquals(Map.of(), mirror.listPullHeads(), "nothing before the first fetch");

        mirror.fetch();

        assertEquals(new TreeMap<>(Map.of(7, seven, 12, twelve)), mirror.listPullHeads());
        assertEquals(List.of(7, 12), List.copyOf(mirror.listPullHeads().keySet()), "numeric order");
        assertEquals(Map.of("main", main), mirror.listBranches());

        origin.deleteBranch("refs/pull/7/head");
        mirror.fetch();

        assertEquals(Map.of(12, twelve), mirror.listPullHeads());
    }

    @Test void invalidOrMissingCommitsFailWithAClearMessage() throws Exception {
        String sha = origin.commit("main", Map.of("a.yaml", "a\n"), "one");
        mirror.fetch();
        String missing = sha.startsWith("0") ? "1".repeat(40) : "0".repeat(40);
        String blob = origin.blobId(sha, "a.yaml");

        assertMessage("base commit is not a full commit id: main", () -> mirror.previewMerge("main", sha));
        assertMessage("head commit is not a full commit id: null", () -> mirror.previewMerge(sha, null));
        assertMessage("head commit " + missing + " is not in the mirror", () -> mirror.previewMerge(sha, missing));
        assertMessage("commit " + blob + " is not a commit", () -> mirror.treeOf(blob));
        assertMessage("ancestor " + missing + " is not in the mirror", () -> mirror.isAncestor(missing, sha));
        assertMessage("to is not a full commit id: " + sha.substring(0, 7),
                () -> mirror.commitsBetween(null, sha.substring(0, 7), 5));
        assertThrows(IllegalArgumentException.class, () -> mirror.commitsBetween(null, sha, -1));
    }

    private Map<String, String> refs() throws IOException {
        Map<String, String> refs = new HashMap<>();
        for (Ref ref : mirror.repository().getRefDatabase().getRefs()) {
            refs.put(ref.getName(), ref.getObjectId().name());
        }
        return refs;
    }

    private RevCommit parse(String commit) throws IOException {
        try (RevWalk walk = new RevWalk(mirror.repository())) {
            return walk.parseCommit(ObjectId.fromString(commit));
        }
    }

    private static void assertMessage(String expectedStart, org.junit.jupiter.api.function.Executable call) {
        IOException e = assertThrows(IOException.class, call);
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
