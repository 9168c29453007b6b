package dev.windlass.git;

import static dev.windlass.git.StatusWriterTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the engine finds what to review over smart HTTP: branches and pull request heads, what moved or vanished since
 * the last fetch, and the merge result of a pull request computed from the fetched objects alone.
 */
class ReviewDiscoveryIT {

    static final String TOKEN = "review-token";

    @TempDir Path tmp;
    Origin origin;
    GitHttpServer server;
    Mirror mirror;

    String fork;
    String main;
    String featureA;
    String pull8;

    @BeforeEach void setUp() throws Exception {
        origin = Origin.create(tmp);
        fork = origin.commit("main", Map.of("clusters/prod.yaml", "name: prod\n"), "config");
        featureA = origin.commitOnto(fork, "refs/heads/feature/a", Map.of("apps/a.yaml", "app: a\n"), "feature a");
        origin.push(featureA, "refs/pull/7/head");
        pull8 = origin.commitOnto(fork, "refs/pull/8/head", Map.of("apps/eight.yaml", "app: eight\n"), "pull 8");
        // Main moves on after both reviews forked, so merging pull 8 is a real merge rather than a fast-forward.
        main = origin.commit("main", Map.of("clusters/prod.yaml", "name: prod\nregion: eu\n"), "region");

        server = GitHttpServer.start(tmp, TOKEN);
        String url = server.url("origin.git");
        mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.of(url, Map.of(GitCredentials.TOKEN, TOKEN)::get));
        mirror.fetch();
    }

    @AfterEach void tearDown() throws Exception {
        mirror.close();
        server.close();
        origin.close();
    }

    @Test void fetchFindsBranchesAndPullRequestHeads() throws Exception {
        assertEquals(Map.of("main", main, "feature/a", featureA), mirror.listBranches());
        assertEquals(Map.of(7, featureA, 8, pull8), mirror.listPullHeads());
    }

    @Test void aPushToAPullRequestHeadIsReportedWithOldAndNewIds() throws Exception {
        String moved = origin.commitOnto(featureA, "refs/pull/7/head", Map.of("apps/a.yaml", "app: a2\n"), "fix");

        FetchOutcome outcome = mirror.fetch();

        RefChange change = new RefChange("refs/pull/7/head", Optional.of(featureA), Optional.of(moved));
        assertEquals(Map.of(7, change), outcome.pullRequests());
        assertEquals(Set.of("refs/pull/7/head"), outcome.changes().keySet());
        assertEquals(Map.of(7, moved, 8, pull8), mirror.listPullHeads());
    }

    @Test void aDeletedBranchIsReportedAndForgotten() throws Exception {
        origin.deleteBranch("refs/heads/feature/a");

        FetchOutcome outcome = mirror.fetch();

        RefChange change = outcome.change("feature/a").orElseThrow();
        assertTrue(change.deleted());
        assertEquals(Optional.of(featureA), change.oldId());
        assertTrue(outcome.pullRequests().isEmpty(), "pull 7 still points at the commit: " + outcome);
        assertEquals(Map.of("main", main), mirror.listBranches());
        assertEquals(Map.of(7, featureA, 8, pull8), mirror.listPullHeads());
    }

    @Test void previewOfAPullRequestMergesTheFetchedObjects() throws Exception {
        String head = mirror.listPullHeads().get(8);

        MergePreview.Merged merged = assertInstanceOf(MergePreview.Merged.class, mirror.previewMerge(main, head));

        assertFalse(merged.fastForward());
        CommitSnapshot snapshot = mirror.snapshot(merged.commit());
        assertEquals(Set.of("apps/eight.yaml", "clusters/prod.yaml"), snapshot.files().keySet());
        assertEquals("app: eight\n", text(snapshot.read("apps/eight.yaml")));
        assertEquals("name: prod\nregion: eu\n", text(snapshot.read("clusters/prod.yaml")));
        assertEquals(Set.of("apps/eight.yaml"), mirror.changes(main, merged.commit()).paths());
        assertTrue(mirror.isAncestor(head, merged.commit()));
        assertEquals(List.of(merged.commit(), head), mirror.commitsBetween(main, merged.commit(), 10));
    }
}
