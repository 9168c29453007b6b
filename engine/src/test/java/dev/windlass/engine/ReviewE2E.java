package dev.windlass.engine;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.review.ReviewRecord;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pull-request review end to end: a real Git origin with branches and {@code refs/pull/N/head}, sandbox clusters, the
 * Git host's API played by WireMock. What a reviewer sees (the comment, the commit status, plans/<branch>.md) and what
 * a merge then does (applied reviewed plan, or diverged, or held) are asserted.
 */
class ReviewE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final String WEB = "apps/web/manifests/deployment.yaml";
    static final String API = "apps/api/manifests/api.yaml";
    static final String TOKEN = "review-token-123";

    @TempDir Path dir;
    WireMockServer host;

    @BeforeEach void startHost() {
        host = new WireMockServer(WireMockConfiguration.options().dynamicPort().containerThreads(8).jettyAcceptors(1));
        host.start();
        stubHappyHost();
    }

    void stubHappyHost() {
        host.stubFor(get(urlPathMatching("/(api/v1/)?repos/org/fleet/issues/\\d+/comments")).willReturn(okJson("[]")));
        host.stubFor(post(urlPathMatching("/(api/v1/)?repos/org/fleet/issues/\\d+/comments"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json").withBody("{\"id\": 501, \"body\": \"\"}")));
        host.stubFor(patch(urlPathMatching("/(api/v1/)?repos/org/fleet/issues/comments/501")).willReturn(okJson("{\"id\": 501, \"body\": \"\"}")));
        host.stubFor(post(urlPathMatching("/(api/v1/)?repos/org/fleet/statuses/[0-9a-f]{40}"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json").withBody("{\"id\": 1}")));
    }

    @AfterEach void stopHost() { host.stop(); }

    String settings(String type, boolean requireUndiverged) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        String api = "http://127.0.0.1:" + host.port() + (type.equals("gitea") ? "/api/v1" : "");
        return "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nmetadata: {name: windlass}\nspec:\n  statusBranch: windlass/status\n"
                + "  review:\n    requireUndiverged: " + requireUndiverged + "\n"
                + "    host: {type: " + type + ", apiUrl: \"" + api + "\", repository: org/fleet, tokenFile: \"" + token + "\"}\n";
    }

    TestFleet fleet(String type, boolean requireUndiverged) throws Exception {
        TestFleet fleet = new TestFleet(dir);
        String settings = settings(type, requireUndiverged);
        fleet.push("fleet", c -> TestFleet.folder(EXAMPLES, "").apply(c).write("windlass.yaml", settings));
        fleet.settle();
        return fleet;
    }

    static List<ReviewRecord> passAndReview(TestFleet fleet) throws Exception {
        PassReport r = fleet.pass();
        return fleet.engine.reviews().run(r.source(), r.desired());
    }

    static void scaleWeb(TestFleet fleet, String branch, int replicas) throws Exception {
        String deployment = Files.readString(EXAMPLES.resolve(WEB)).replace("replicas: 2", "replicas: " + replicas);
        fleet.pushTo(branch, "web: " + replicas + " replicas", c -> c.write(WEB, deployment));
    }

    static int replicas(TestFleet fleet, String cluster, String app) {
        try (KubernetesClient k = fleet.cluster(cluster).newClient()) {
            return k.apps().deployments().inNamespace(app).withName(app).get().getSpec().getReplicas();
        }
    }

    static String lastStatusCommit(TestFleet fleet) throws Exception {
        return fleet.statusLog().get(0).getFullMessage();
    }

    @Test
    void aPullRequestGetsOneCommentEditedOnEachPushAndTheMergeAppliesTheReviewedPlan() throws Exception {
        try (TestFleet fleet = fleet("github", false)) {
            scaleWeb(fleet, "feature/scale", 3);
            fleet.setRef("refs/pull/12/head", fleet.head("refs/heads/feature/scale"));
            List<ReviewRecord> reviewed = passAndReview(fleet);

            assertEquals(1, reviewed.size(), reviewed.toString());
            ReviewRecord review = reviewed.get(0);
            assertEquals(12, review.pull(), "the pull request lends its number to the branch it points at");
            String plan = fleet.statusFile("plans/feature/scale.md");
            assertTrue(plan.startsWith("## Windlass plan: `feature/scale` into `main`\n"), plan);
            assertTrue(plan.contains("**3 objects to create, change or delete on 3 clusters, in 1 wave**"), plan);
            assertTrue(plan.contains("-  replicas: 2\n+  replicas: 3\n"), plan);
            assertTrue(plan.contains("Plan `" + review.planHash() + "`"), plan);
            assertTrue(lastStatusCommit(fleet).startsWith("windlass: plan for feature/scale (#12): 3 objects to create, change or delete"),
                    lastStatusCommit(fleet));
            assertTrue(lastStatusCommit(fleet).contains("Windlass-Event: Review"));
            assertEquals(2, replicas(fleet, "eu-1", "web"), "a review applies nothing");

            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/repos/org/fleet/issues/12/comments"))
                    .withHeader("Authorization", equalTo("Bearer " + TOKEN))
                    .withRequestBody(matchingJsonPath("$.body", containing("<!-- windlass-plan: feature/scale -->")))
                    .withRequestBody(matchingJsonPath("$.body", containing("+  replicas: 3"))));
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/repos/org/fleet/statuses/" + review.head()))
                    .withRequestBody(matchingJsonPath("$.state", equalTo("success")))
                    .withRequestBody(matchingJsonPath("$.context", equalTo("windlass/plan"))));

            // The next push edits the same comment.
            scaleWeb(fleet, "feature/scale", 4);
            fleet.setRef("refs/pull/12/head", fleet.head("refs/heads/feature/scale"));
            review = passAndReview(fleet).get(0);
            host.verify(exactly(1), patchRequestedFor(urlPathEqualTo("/repos/org/fleet/issues/comments/501"))
                    .withRequestBody(matchingJsonPath("$.body", containing("+  replicas: 4"))));
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/repos/org/fleet/issues/12/comments")));
            assertTrue(fleet.statusFile("plans/feature/scale.md").contains("+  replicas: 4"));

            // Nothing new on the branch: nothing is planned or posted again.
            int requests = host.getAllServeEvents().size();
            assertEquals(List.of(), passAndReview(fleet));
            assertEquals(requests, host.getAllServeEvents().size(), "no new request to the host");

            // Merged as reviewed (fast-forward): the pass says so and applies it.
            fleet.setRef("refs/heads/main", review.head());
            passAndReview(fleet);
            String merged = lastStatusCommitWith(fleet, "applied reviewed plan");
            assertTrue(merged.contains("applied reviewed plan " + review.planHash() + " of feature/scale (#12)"), merged);
            assertEquals(4, replicas(fleet, "eu-1", "web"));
            assertNull(fleet.statusFile("reviews/feature/scale.yaml"), "a merged review is forgotten");
            assertNull(fleet.statusFile("plans/feature/scale.md"));
        }
    }

    @Test
    void aMergeWhosePlanDiffersIsAppliedAndTheDifferenceRecordedAndCommented() throws Exception {
        try (TestFleet fleet = fleet("github", false)) {
            scaleWeb(fleet, "feature/scale", 3);
            fleet.setRef("refs/pull/12/head", fleet.head("refs/heads/feature/scale"));
            ReviewRecord review = passAndReview(fleet).get(0);

            // main moves before the merge: the merge's plan also scales api, which nobody reviewed here.
            String api = Files.readString(EXAMPLES.resolve(API)).replace("replicas: 3", "replicas: 5");
            fleet.push("api: 5 replicas", c -> c.write(API, api));
            fleet.merge("feature/scale");
            passAndReview(fleet);

            String message = lastStatusCommitWith(fleet, "plan diverged from review");
            assertTrue(message.contains("plan diverged from review of feature/scale (#12) (reviewed " + review.planHash()), message);
            assertTrue(message.contains("Plan diverged from review of feature/scale (#12):\n  + Update Deployment api/api on eu-1 (api)"), message);
            assertEquals(3, replicas(fleet, "eu-1", "web"), "Git stays the truth: applied");
            assertEquals(5, replicas(fleet, "eu-1", "api"));
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/repos/org/fleet/issues/12/comments"))
                    .withRequestBody(matchingJsonPath("$.body", containing("<!-- windlass-diverged: feature/scale -->")))
                    .withRequestBody(matchingJsonPath("$.body", containing("+ Update Deployment api/api on eu-1"))));
        }
    }

    @Test
    void requireUndivergedHoldsTheMergeUntilTheFreshPlanIsPublished() throws Exception {
        try (TestFleet fleet = fleet("github", true)) {
            scaleWeb(fleet, "feature/scale", 3);
            fleet.setRef("refs/pull/12/head", fleet.head("refs/heads/feature/scale"));
            passAndReview(fleet);
            String api = Files.readString(EXAMPLES.resolve(API)).replace("replicas: 3", "replicas: 5");
            fleet.push("api: 5 replicas", c -> c.write(API, api));
            fleet.merge("feature/scale");

            PassReport held = fleet.pass();
            fleet.engine.reviews().run(held.source(), held.desired());
            assertTrue(held.applied().results().isEmpty(), "nothing applied while held");
            assertEquals(2, replicas(fleet, "eu-1", "web"));
            assertEquals(3, replicas(fleet, "eu-1", "api"));
            String message = lastStatusCommitWith(fleet, "held: plan diverged from review");
            assertTrue(message.contains("held: plan diverged from review of feature/scale (#12)"), message);
            String fresh = fleet.statusFile("plans/feature/scale.md");
            assertTrue(fresh.contains("as merged") && fresh.contains("Deployment api/api"), "the fresh plan is published:\n" + fresh);
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/repos/org/fleet/issues/12/comments"))
                    .withRequestBody(matchingJsonPath("$.body", containing("It is **held**"))));

            passAndReview(fleet);
            String applied = lastStatusCommitWith(fleet, "applied re-published plan");
            assertTrue(applied.contains("of feature/scale (#12) (it diverged from review and was held one pass)"), applied);
            assertEquals(3, replicas(fleet, "eu-1", "web"));
            assertEquals(5, replicas(fleet, "eu-1", "api"));
            assertNull(fleet.statusFile("reviews/feature/scale.yaml"));
        }
    }

    @Test
    void aValidationErrorFailsTheCommitStatusAndABranchWithoutPullRequestIsPlannedOnly() throws Exception {
        try (TestFleet fleet = fleet("github", false)) {
            String broken = readExample("apps/web/app.yaml").replace("prune: true", "prune: sometimes");
            fleet.pushTo("feature/broken", "a typo", c -> c.write("apps/web/app.yaml", broken));
            fleet.setRef("refs/pull/13/head", fleet.head("refs/heads/feature/broken"));
            scaleWeb(fleet, "feature/no-pr", 3);
            List<ReviewRecord> reviewed = passAndReview(fleet);

            assertEquals(List.of("feature/broken", "feature/no-pr"), reviewed.stream().map(ReviewRecord::ref).toList());
            String plan = fleet.statusFile("plans/feature/broken.md");
            assertTrue(plan.contains("### Validation errors") && plan.contains("- `apps/web/app.yaml:14:12: Application.spec.syncPolicy.prune must be true or false`"), plan);
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/repos/org/fleet/statuses/" + reviewed.get(0).head()))
                    .withRequestBody(matchingJsonPath("$.state", equalTo("failure"))));
            assertTrue(reviewed.get(1).published().startsWith("not published: no pull request is known"), reviewed.get(1).published());
            assertNotNull(fleet.statusFile("plans/feature/no-pr.md"));
            host.verify(exactly(1), postRequestedFor(urlPathMatching("/repos/org/fleet/issues/\\d+/comments")));

            // A deleted branch's review is closed.
            try (org.eclipse.jgit.lib.Repository repo = new org.eclipse.jgit.storage.file.FileRepositoryBuilder().setGitDir(fleet.origin.toFile()).build()) {
                org.eclipse.jgit.lib.RefUpdate u = repo.updateRef("refs/heads/feature/no-pr");
                u.setForceUpdate(true);
                u.delete();
            }
            passAndReview(fleet);
            assertNull(fleet.statusFile("plans/feature/no-pr.md"));
            assertTrue(lastStatusCommitWith(fleet, "review of feature/no-pr closed").startsWith("windlass: review of feature/no-pr closed"));
        }
    }

    @Test
    void hostErrorsAreRecordedAndRetriedAndNeverStopReconciling() throws Exception {
        try (TestFleet fleet = fleet("github", false)) {
            host.resetAll();
            host.stubFor(post(urlPathMatching("/repos/org/fleet/.*")).willReturn(aResponse().withStatus(502)));
            host.stubFor(get(urlPathMatching("/repos/org/fleet/.*")).willReturn(aResponse().withStatus(502)));
            scaleWeb(fleet, "feature/scale", 3);
            fleet.setRef("refs/pull/12/head", fleet.head("refs/heads/feature/scale"));
            ReviewRecord failed = passAndReview(fleet).get(0);
            assertTrue(failed.published().contains("failed"), failed.published());
            assertNotNull(failed.retryAfter());
            assertNotNull(fleet.statusFile("plans/feature/scale.md"), "the plan is on the status branch anyway");

            // Reconciling goes on: a change to main is applied.
            String api = Files.readString(EXAMPLES.resolve(API)).replace("replicas: 3", "replicas: 4");
            fleet.push("api: 4 replicas", c -> c.write(API, api));
            startHostAgain();
            List<ReviewRecord> retried = passAndReview(fleet);
            assertEquals(4, replicas(fleet, "eu-1", "api"));
            assertEquals(1, retried.size(), "published again on the next pass");
            assertTrue(retried.get(0).published().startsWith("comment: created 501"), retried.get(0).published());
            assertNull(retried.get(0).retryAfter());
        }
    }

    @Test
    void giteaStyleHostGetsTheSameCommentAndStatus() throws Exception {
        try (TestFleet fleet = fleet("gitea", false)) {
            scaleWeb(fleet, "feature/scale", 3);
            fleet.setRef("refs/pull/7/head", fleet.head("refs/heads/feature/scale"));
            ReviewRecord review = passAndReview(fleet).get(0);
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/api/v1/repos/org/fleet/issues/7/comments"))
                    .withHeader("Authorization", equalTo("token " + TOKEN))
                    .withRequestBody(matchingJsonPath("$.body", containing("<!-- windlass-plan: feature/scale -->"))));
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/api/v1/repos/org/fleet/statuses/" + review.head()))
                    .withRequestBody(matchingJsonPath("$.state", equalTo("success"))));
        }
    }

    @Test
    void aBranchThatConflictsWithMainIsReportedNotPlanned() throws Exception {
        try (TestFleet fleet = fleet("github", false)) {
            scaleWeb(fleet, "feature/scale", 3);
            fleet.setRef("refs/pull/12/head", fleet.head("refs/heads/feature/scale"));
            String deployment = Files.readString(EXAMPLES.resolve(WEB)).replace("replicas: 2", "replicas: 6");
            fleet.push("web: 6 replicas", c -> c.write(WEB, deployment));
            ReviewRecord review = passAndReview(fleet).get(0);
            String plan = fleet.statusFile("plans/feature/scale.md");
            assertTrue(plan.contains("**Cannot plan: the branch conflicts with main** in `" + WEB + "`"), plan);
            assertTrue(review.failing());
            host.verify(exactly(1), postRequestedFor(urlPathEqualTo("/repos/org/fleet/statuses/" + review.head()))
                    .withRequestBody(matchingJsonPath("$.state", equalTo("failure"))));
        }
    }

    void startHostAgain() {
        host.resetAll();
        stubHappyHost();
    }

    static String readExample(String path) throws Exception { return Files.readString(EXAMPLES.resolve(path)); }

    static String lastStatusCommitWith(TestFleet fleet, String text) throws Exception {
        for (RevCommit c : fleet.statusLog()) if (c.getFullMessage().contains(text)) return c.getFullMessage();
        throw new AssertionError("no status commit says '" + text + "':\n" + fleet.statusLog().stream().map(RevCommit::getShortMessage).toList());
    }
}
