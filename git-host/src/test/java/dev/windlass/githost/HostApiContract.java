package dev.windlass.githost;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.jsonResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import dev.windlass.githost.HostOutcome.Deferred;
import dev.windlass.githost.HostOutcome.Done;
import dev.windlass.githost.HostOutcome.Failed;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a caller sees of {@link GitHost} against either dialect of the Git host's API, run once per dialect by
 * {@link GitHubApiTest} and {@link GiteaApiTest}: those say where the API lives, how a listing is asked for and
 * which headers the dialect sends.
 */
abstract class HostApiContract {

    static final String TOKEN = "tok-5ecret-7f3a91";
    static final String REPOSITORY = "acme/fleet";
    static final String MARKER = "<!-- windlass:review -->";
    static final int PULL = 7;
    static final String SHA = "3f786850e387550fdab836ed7e6dc881de23001b";
    static final Instant NOW = Instant.parse("2031-05-04T10:00:00Z");
    static final String FIRST_PLAN = MARKER + "\n### Plan\n+ deployment/web replicas 3";
    static final String NEXT_PLAN = MARKER + "\n### Plan\n+ deployment/web replicas 4";

    private static final ObjectMapper JSON = new ObjectMapper();

    WireMockServer server;
    final List<Duration> slept = new ArrayList<>();

    abstract HostKind kind();

    /** The API root below the server, as apiUrl gives it. */
    abstract String apiRoot();

    /** The Authorization header this dialect sends for {@link #TOKEN}. */
    abstract String authorization();

    /** Matches the one request that lists all comments of a pull request with fewer than 100 of them. */
    abstract MappingBuilder listing(int pull);

    /** The same request, to verify. */
    abstract RequestPatternBuilder listed(int pull);

    /** Adds the dialect's own headers (Accept, version) to a request pattern. */
    abstract RequestPatternBuilder withDialectHeaders(RequestPatternBuilder request);

    @BeforeEach
    void startServer() {
        server = new WireMockServer(wireMockConfig().dynamicPort().jettyAcceptors(1));
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop();
    }

    GitHost host() {
        return host(TOKEN, URI.create(server.baseUrl() + apiRoot()));
    }

    GitHost host(String token, URI apiUrl) {
        HostConfig config = new HostConfig(kind(), apiUrl, REPOSITORY, token);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return new GitHost(config, http, slept::add, Clock.fixed(NOW, ZoneOffset.UTC), 3, Duration.ofSeconds(10));
    }

    /** A path of the repository below the API root. */
    String path(String below) {
        return apiRoot() + "/repos/" + REPOSITORY + below;
    }

    String commentsPath() {
        return path("/issues/" + PULL + "/comments");
    }

    String commentPath(long id) {
        return path("/issues/comments/" + id);
    }

    String statusPath() {
        return path("/statuses/" + SHA);
    }

    static String comment(long id, String body) {
        return JSON.createObjectNode().put("id", id).put("body", body).put("user", "someone").toString();
    }

    static String comments(String... comments) {
        return "[" + String.join(",", comments) + "]";
    }

    /** {@code count} comments by other people, ids from {@code firstId}. */
    static String othersComments(int firstId, int count) {
        ArrayNode list = JSON.createArrayNode();
        for (int i = 0; i < count; i++) list.addObject().put("id", firstId + i).put("body", "looks fine " + i);
        return list.toString();
    }

    static ResponseDefinitionBuilder created(long id, String body) {
        return jsonResponse(comment(id, body), 201);
    }

    // ---- one comment per review: created, then edited, never duplicated

    @Test
    void oneCommentIsCreatedThenEditedOnTheNextPushNotDuplicated() {
        server.stubFor(listing(PULL).inScenario("review").whenScenarioStateIs(STARTED)
                .willReturn(okJson(comments(comment(11, "please look at the ingress too")))));
        server.stubFor(post(urlEqualTo(commentsPath())).inScenario("review").whenScenarioStateIs(STARTED)
                .willReturn(created(501, FIRST_PLAN)).willSetStateTo("commented"));
        server.stubFor(listing(PULL).inScenario("review").whenScenarioStateIs("commented")
                .willReturn(okJson(comments(comment(11, "please look at the ingress too"), comment(501, FIRST_PLAN)))));
        server.stubFor(patch(urlEqualTo(commentPath(501))).willReturn(okJson(comment(501, NEXT_PLAN))));

        GitHost host = host();
        assertEquals(new Done("created", 501), host.upsertComment(PULL, MARKER, FIRST_PLAN, 0));
        assertEquals(new Done("edited", 501), host.upsertComment(PULL, MARKER, NEXT_PLAN, 0));

        server.verify(exactly(1), postRequestedFor(urlEqualTo(commentsPath()))
                .withRequestBody(matchingJsonPath("$.body", equalTo(FIRST_PLAN))));
        server.verify(exactly(1), patchRequestedFor(urlEqualTo(commentPath(501)))
                .withRequestBody(matchingJsonPath("$.body", equalTo(NEXT_PLAN))));
        server.verify(exactly(1), postRequestedFor(anyUrl()));
        server.verify(exactly(1), patchRequestedFor(anyUrl()));
        server.verify(exactly(2), listed(PULL));
        server.verify(exactly(1), withDialectHeaders(postRequestedFor(urlEqualTo(commentsPath())))
                .withHeader("Authorization", equalTo(authorization()))
                .withHeader("Content-Type", equalTo("application/json"))
                .withHeader("User-Agent", equalTo("windlass")));
        server.verify(exactly(2), withDialectHeaders(listed(PULL))
                .withHeader("Authorization", equalTo(authorization())));
    }

    @Test
    void aCommentThatAlreadyReadsTheSameIsLeftAlone() {
        server.stubFor(listing(PULL).willReturn(okJson(comments(comment(501, FIRST_PLAN)))));

        assertEquals(new Done("unchanged", 501), host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        server.verify(exactly(0), patchRequestedFor(anyUrl()));
        server.verify(exactly(0), postRequestedFor(anyUrl()));
    }

    @Test
    void aKnownCommentIdIsEditedDirectlyWithoutListing() {
        server.stubFor(patch(urlEqualTo(commentPath(501))).willReturn(okJson(comment(501, NEXT_PLAN))));

        assertEquals(new Done("edited", 501), host().upsertComment(PULL, MARKER, NEXT_PLAN, 501));

        server.verify(exactly(1), withDialectHeaders(patchRequestedFor(urlEqualTo(commentPath(501))))
                .withHeader("Authorization", equalTo(authorization()))
                .withRequestBody(matchingJsonPath("$.body", equalTo(NEXT_PLAN))));
        server.verify(exactly(1), anyRequestedFor(anyUrl()));
    }

    @Test
    void aKnownCommentThatWasDeletedFallsBackToListingThenCreates() {
        server.stubFor(patch(urlEqualTo(commentPath(404404)))
                .willReturn(jsonResponse("{\"message\":\"Not Found\"}", 404)));
        server.stubFor(listing(PULL).willReturn(okJson(comments(comment(11, "ship it")))));
        server.stubFor(post(urlEqualTo(commentsPath())).willReturn(created(502, NEXT_PLAN)));

        assertEquals(new Done("created", 502), host().upsertComment(PULL, MARKER, NEXT_PLAN, 404404));

        server.verify(exactly(1), patchRequestedFor(urlEqualTo(commentPath(404404))));
        server.verify(exactly(1), listed(PULL));
        server.verify(exactly(1), postRequestedFor(urlEqualTo(commentsPath()))
                .withRequestBody(matchingJsonPath("$.body", equalTo(NEXT_PLAN))));
    }

    @Test
    void otherPeoplesCommentsAreNeverEdited() {
        server.stubFor(listing(PULL).willReturn(okJson(comments(
                comment(11, "LGTM"),
                comment(12, "<!-- some-other-bot --> coverage 81%"),
                comment(13, "windlass review marker is <!-- windlass:other --> not ours")))));
        server.stubFor(post(urlEqualTo(commentsPath())).willReturn(created(501, FIRST_PLAN)));

        assertEquals(new Done("created", 501), host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        server.verify(exactly(0), patchRequestedFor(anyUrl()));
        server.verify(exactly(1), postRequestedFor(urlEqualTo(commentsPath())));
    }

    @Test
    void amongOtherPeoplesCommentsOnlyTheMarkedOneIsEdited() {
        server.stubFor(listing(PULL).willReturn(okJson(comments(
                comment(11, "LGTM"), comment(501, FIRST_PLAN), comment(12, "> " + "quoted plan, no marker")))));
        server.stubFor(patch(urlEqualTo(commentPath(501))).willReturn(okJson(comment(501, NEXT_PLAN))));

        assertEquals(new Done("edited", 501), host().upsertComment(PULL, MARKER, NEXT_PLAN, 0));

        server.verify(exactly(1), patchRequestedFor(anyUrl()));
        server.verify(exactly(1), patchRequestedFor(urlEqualTo(commentPath(501))));
        server.verify(exactly(0), postRequestedFor(anyUrl()));
    }

    @Test
    void aCreateAnswered502IsListedAgainBeforeTryingSoTheCommentIsNotMadeTwice() {
        // The host made the comment but the proxy in front of it answered 502.
        server.stubFor(listing(PULL).inScenario("flaky").whenScenarioStateIs(STARTED)
                .willReturn(okJson(comments())));
        server.stubFor(post(urlEqualTo(commentsPath())).inScenario("flaky").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(502).withBody("Bad Gateway")).willSetStateTo("made anyway"));
        server.stubFor(listing(PULL).inScenario("flaky").whenScenarioStateIs("made anyway")
                .willReturn(okJson(comments(comment(501, FIRST_PLAN)))));

        assertEquals(new Done("unchanged", 501), host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        server.verify(exactly(1), postRequestedFor(anyUrl()));
        server.verify(exactly(2), listed(PULL));
        assertEquals(List.of(Duration.ofSeconds(1)), slept);
    }

    @Test
    void addCommentAlwaysMakesANewComment() {
        server.stubFor(listing(PULL).willReturn(okJson(comments(comment(501, FIRST_PLAN)))));
        server.stubFor(post(urlEqualTo(commentsPath())).willReturn(created(777, "diverged")));

        String notice = "The applied plan differs from the reviewed one.";
        assertEquals(new Done("created", 777), host().addComment(PULL, notice));

        server.verify(exactly(1), withDialectHeaders(postRequestedFor(urlEqualTo(commentsPath())))
                .withHeader("Authorization", equalTo(authorization()))
                .withRequestBody(matchingJsonPath("$.body", equalTo(notice))));
        server.verify(exactly(0), getRequestedFor(anyUrl()));
    }

    // ---- commit statuses

    @Test
    void successStatusCarriesStateContextAndDescription() {
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(jsonResponse("{\"id\":1,\"state\":\"success\"}", 201)));

        HostOutcome outcome = host().setStatus(SHA, CommitState.success, "windlass/plan", "2 clusters, 5 changes",
                "https://windlass.example.com/plans/7");

        assertEquals(new Done("status", 0), outcome);
        server.verify(exactly(1), withDialectHeaders(postRequestedFor(urlEqualTo(statusPath())))
                .withHeader("Authorization", equalTo(authorization()))
                .withHeader("Content-Type", equalTo("application/json"))
                .withHeader("User-Agent", equalTo("windlass"))
                .withRequestBody(matchingJsonPath("$.state", equalTo("success")))
                .withRequestBody(matchingJsonPath("$.context", equalTo("windlass/plan")))
                .withRequestBody(matchingJsonPath("$.description", equalTo("2 clusters, 5 changes")))
                .withRequestBody(matchingJsonPath("$.target_url", equalTo("https://windlass.example.com/plans/7"))));
    }

    @Test
    void failureStatusCutsTheDescriptionAndLeavesOutAMissingTargetUrl() {
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(jsonResponse("{\"id\":2}", 201)));

        String description = "policy denied: " + "replicas above the limit of 3 in cluster eu-west-2; ".repeat(5);
        HostOutcome outcome = host().setStatus(SHA, CommitState.failure, "windlass/plan", description, null);

        assertEquals(new Done("status", 0), outcome);
        server.verify(exactly(1), postRequestedFor(urlEqualTo(statusPath()))
                .withHeader("Authorization", equalTo(authorization()))
                .withRequestBody(matchingJsonPath("$.state", equalTo("failure")))
                .withRequestBody(matchingJsonPath("$.context", equalTo("windlass/plan")))
                .withRequestBody(matchingJsonPath("$.description",
                        equalTo(description.substring(0, 139) + "…")))
                .withRequestBody(notContaining("target_url")));
    }

    @Test
    void noTokenSendsNoAuthorizationHeader() {
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(jsonResponse("{\"id\":3}", 201)));

        HostOutcome outcome = host("  ", URI.create(server.baseUrl() + apiRoot()))
                .setStatus(SHA, CommitState.pending, "windlass/plan", "planning", null);

        assertEquals(new Done("status", 0), outcome);
        server.verify(exactly(1), postRequestedFor(urlEqualTo(statusPath())).withoutHeader("Authorization"));
    }

    @Test
    void theRealClientOfFactoryWorksToo() {
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(jsonResponse("{\"id\":4}", 201)));

        HostConfig config = new HostConfig(kind(), URI.create(server.baseUrl() + apiRoot() + "/"), REPOSITORY, TOKEN);
        assertEquals(new Done("status", 0),
                GitHost.of(config).setStatus(SHA, CommitState.error, "windlass/plan", "could not render", null));

        server.verify(exactly(1), withDialectHeaders(postRequestedFor(urlEqualTo(statusPath())))
                .withHeader("Authorization", equalTo(authorization())));
    }

    @Test
    void statusForAnUnknownCommitFailsWithTheHostsMessage() {
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(jsonResponse(
                "{\"message\":\"No commit found for SHA: " + SHA + "\","
                        + "\"documentation_url\":\"https://docs.example.com/statuses\"}", 422)));

        HostOutcome outcome = host().setStatus(SHA, CommitState.success, "windlass/plan", "ok", null);

        Failed failed = assertInstanceOf(Failed.class, outcome);
        assertEquals(422, failed.httpStatus());
        assertEquals("the Git host refused the request (422): No commit found for SHA: " + SHA, failed.message());
        server.verify(exactly(1), postRequestedFor(anyUrl()));
        assertTrue(slept.isEmpty());
    }

    @Test
    void validationErrorsAreSpelledOut() {
        server.stubFor(listing(PULL).willReturn(okJson(comments())));
        server.stubFor(post(urlEqualTo(commentsPath())).willReturn(jsonResponse("{\"message\":\"Validation Failed\","
                + "\"errors\":[{\"resource\":\"IssueComment\",\"code\":\"custom\",\"field\":\"body\","
                + "\"message\":\"body is too long (maximum is 65536 characters)\"},"
                + "{\"resource\":\"IssueComment\",\"code\":\"missing_field\",\"field\":\"user\"}]}", 422)));

        Failed failed = assertInstanceOf(Failed.class, host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        assertEquals(422, failed.httpStatus());
        assertEquals("the Git host refused the request (422): Validation Failed; body is too long (maximum is 65536"
                + " characters); missing_field (user)", failed.message());
    }

    // ---- 5xx and no answer

    @Test
    void twoServerErrorsThenSuccessIsDoneAfterTwoWaits() {
        server.stubFor(post(urlEqualTo(statusPath())).inScenario("down").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(502)).willSetStateTo("still down"));
        server.stubFor(post(urlEqualTo(statusPath())).inScenario("down").whenScenarioStateIs("still down")
                .willReturn(aResponse().withStatus(503)).willSetStateTo("up"));
        server.stubFor(post(urlEqualTo(statusPath())).inScenario("down").whenScenarioStateIs("up")
                .willReturn(jsonResponse("{\"id\":5}", 201)));

        assertEquals(new Done("status", 0), host().setStatus(SHA, CommitState.success, "windlass/plan", "ok", null));

        server.verify(exactly(3), postRequestedFor(urlEqualTo(statusPath())));
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), slept);
    }

    @Test
    void serverErrorsEveryTimeFailAfterThreeTries() {
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(aResponse().withStatus(502).withBody("<html>")));

        Failed failed = assertInstanceOf(Failed.class,
                host().setStatus(SHA, CommitState.success, "windlass/plan", "ok", null));

        assertEquals(502, failed.httpStatus());
        assertTrue(failed.message().contains("answered 502 three times"), failed.message());
        assertTrue(failed.message().contains("Windlass tries again on the next pass"), failed.message());
        server.verify(exactly(3), postRequestedFor(urlEqualTo(statusPath())));
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), slept);
    }

    @Test
    void aListingThatKeepsFailingFailsTheUpsertWithoutCreating() {
        server.stubFor(listing(PULL).willReturn(aResponse().withStatus(500)));

        Failed failed = assertInstanceOf(Failed.class, host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        assertEquals(500, failed.httpStatus());
        server.verify(exactly(3), listed(PULL));
        server.verify(exactly(0), postRequestedFor(anyUrl()));
    }

    @Test
    void noAnswerAtAllIsAFailureNotAnException() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        HostOutcome outcome = host(TOKEN, URI.create("http://127.0.0.1:" + closedPort + apiRoot()))
                .setStatus(SHA, CommitState.success, "windlass/plan", "ok", null);

        Failed failed = assertInstanceOf(Failed.class, outcome);
        assertEquals(0, failed.httpStatus());
        assertTrue(failed.message().startsWith("could not reach the Git host at http://127.0.0.1:" + closedPort),
                failed.message());
        assertTrue(failed.message().contains("check review.host apiUrl"), failed.message());
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), slept);
    }

    // ---- rate limits

    @Test
    void anExhaustedRateLimitAnHourAwayIsDeferredUntilTheReset() {
        long reset = NOW.plus(Duration.ofHours(1)).getEpochSecond();
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(jsonResponse("{\"message\":\"API rate limit exceeded\"}", 403)
                .withHeader("X-RateLimit-Remaining", "0").withHeader("X-RateLimit-Reset", Long.toString(reset))));

        HostOutcome outcome = host().setStatus(SHA, CommitState.success, "windlass/plan", "ok", null);

        Deferred deferred = assertInstanceOf(Deferred.class, outcome);
        assertEquals(Instant.ofEpochSecond(reset), deferred.until());
        assertEquals("rate limited by the Git host until 2031-05-04T11:00:00Z", deferred.reason());
        server.verify(exactly(1), anyRequestedFor(anyUrl()));
        assertTrue(slept.isEmpty());
    }

    @Test
    void aShortRetryAfterIsWaitedOut() {
        server.stubFor(post(urlEqualTo(statusPath())).inScenario("busy").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2")).willSetStateTo("calm"));
        server.stubFor(post(urlEqualTo(statusPath())).inScenario("busy").whenScenarioStateIs("calm")
                .willReturn(jsonResponse("{\"id\":6}", 201)));

        assertEquals(new Done("status", 0), host().setStatus(SHA, CommitState.success, "windlass/plan", "ok", null));

        assertEquals(List.of(Duration.ofSeconds(2)), slept);
        server.verify(exactly(2), postRequestedFor(urlEqualTo(statusPath())));
    }

    @Test
    void aLongRetryAfterOnA403IsDeferred() {
        server.stubFor(listing(PULL).willReturn(aResponse().withStatus(403).withHeader("Retry-After", "60")
                .withBody("{\"message\":\"You have exceeded a secondary rate limit\"}")));

        Deferred deferred = assertInstanceOf(Deferred.class, host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        assertEquals(NOW.plusSeconds(60), deferred.until());
        server.verify(exactly(1), anyRequestedFor(anyUrl()));
        assertTrue(slept.isEmpty());
    }

    // ---- refusals, with what to do about them

    @Test
    void aRejectedTokenSaysToCheckTheTokenWithoutShowingIt() {
        server.stubFor(post(urlEqualTo(statusPath())).willReturn(jsonResponse("{\"message\":\"Bad credentials\"}", 401)));

        Failed failed = assertInstanceOf(Failed.class,
                host().setStatus(SHA, CommitState.success, "windlass/plan", "ok", null));

        assertEquals(new Failed(401, "the Git host rejected the token (401): check the review token"
                + " (env WINDLASS_REVIEW_TOKEN or tokenFile)"), failed);
        assertFalse(failed.message().contains(TOKEN));
        server.verify(exactly(1), anyRequestedFor(anyUrl()));
    }

    @Test
    void aMissingPermissionSaysWhichOneIsNeeded() {
        server.stubFor(listing(PULL).willReturn(okJson(comments())));
        server.stubFor(post(urlEqualTo(commentsPath()))
                .willReturn(jsonResponse("{\"message\":\"Resource not accessible by integration\"}", 403)));

        Failed failed = assertInstanceOf(Failed.class, host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        assertEquals(403, failed.httpStatus());
        assertTrue(failed.message().endsWith("(403): the token lacks permission: it needs write access to pull request"
                + " comments and commit statuses"), failed.message());
        assertFalse(failed.message().contains(TOKEN));
        server.verify(exactly(1), postRequestedFor(anyUrl()));
        assertTrue(slept.isEmpty());
    }

    @Test
    void aPullRequestThatIsNotThereSaysWhatToCheck() {
        server.stubFor(listing(PULL).willReturn(jsonResponse("{\"message\":\"Not Found\"}", 404)));

        Failed failed = assertInstanceOf(Failed.class, host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        assertEquals(404, failed.httpStatus());
        assertTrue(failed.message().contains(commentsPath()), failed.message());
        assertTrue(failed.message().contains("check review.host apiUrl and repository, the pull request number"),
                failed.message());
        assertFalse(failed.message().contains(TOKEN));
        server.verify(exactly(1), anyRequestedFor(anyUrl()));
        server.verify(exactly(0), postRequestedFor(anyUrl()));
    }

    @Test
    void anApiUrlThatAnswersWithWebPagesSaysToFixIt() {
        server.stubFor(listing(PULL).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html").withBody("<!DOCTYPE html><html>sign in</html>")));

        Failed failed = assertInstanceOf(Failed.class, host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        assertEquals(200, failed.httpStatus());
        assertTrue(failed.message().contains("check that review.host apiUrl is the API root"), failed.message());
        server.verify(exactly(0), postRequestedFor(anyUrl()));
    }

    @Test
    void otherRefusalsQuoteTheHost() {
        server.stubFor(post(urlEqualTo(statusPath()))
                .willReturn(aResponse().withStatus(409).withBody("x".repeat(500))));

        Failed failed = assertInstanceOf(Failed.class,
                host().setStatus(SHA, CommitState.success, "windlass/plan", "ok", null));

        assertEquals(409, failed.httpStatus());
        assertTrue(failed.message().endsWith(": " + "x".repeat(200) + "…"), failed.message());
    }

    @Test
    void requestsUseTheRepositoryPathsBelowTheApiRoot() {
        server.stubFor(post(urlPathMatching(".*")).willReturn(jsonResponse("{\"id\":9}", 201)));

        host().addComment(PULL, "hello");
        host().setStatus(SHA, CommitState.pending, "windlass/plan", "planning", null);

        server.verify(exactly(1), postRequestedFor(urlEqualTo(apiRoot() + "/repos/acme/fleet/issues/7/comments")));
        server.verify(exactly(1), postRequestedFor(urlEqualTo(apiRoot() + "/repos/acme/fleet/statuses/" + SHA)));
    }

    static final String REVERT_BRANCH = "windlass/revert/web-5d1c0e2";

    private static String pull(long number, String head) {
        return "{\"number\":" + number + ",\"html_url\":\"https://git.example.com/acme/fleet/pull/" + number
                + "\",\"head\":{\"ref\":\"" + head + "\"}}";
    }

    @Test
    void aRevertPullRequestIsOpenedFromItsBranchIntoTheConfigBranch() {
        server.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(urlPathMatching(path("/pulls")))
                .willReturn(okJson("[" + pull(3, "feature/x") + "]")));
        server.stubFor(post(urlEqualTo(path("/pulls"))).willReturn(jsonResponse(pull(12, REVERT_BRANCH), 201)));

        HostOutcome opened = host().openPullRequest(REVERT_BRANCH, "main", "Revert web to 1a2b3c: rollout of 5d1c0e2 failed on eu-2", "why");

        assertEquals(new HostOutcome.PullRequest("created", 12, "https://git.example.com/acme/fleet/pull/12"), opened);
        server.verify(exactly(1), withDialectHeaders(postRequestedFor(urlEqualTo(path("/pulls"))))
                .withHeader("Authorization", equalTo(authorization()))
                .withRequestBody(matchingJsonPath("$.head", equalTo(REVERT_BRANCH)))
                .withRequestBody(matchingJsonPath("$.base", equalTo("main")))
                .withRequestBody(matchingJsonPath("$.title", equalTo("Revert web to 1a2b3c: rollout of 5d1c0e2 failed on eu-2")))
                .withRequestBody(matchingJsonPath("$.body", equalTo("why"))));
    }

    @Test
    void aRevertPullRequestFromTheSameBranchIsFoundNotOpenedTwice() {
        server.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(urlPathMatching(path("/pulls")))
                .willReturn(okJson("[" + pull(12, REVERT_BRANCH) + "]")));

        HostOutcome found = host().openPullRequest(REVERT_BRANCH, "main", "Revert web", "why");

        assertEquals(new HostOutcome.PullRequest("found", 12, "https://git.example.com/acme/fleet/pull/12"), found);
        server.verify(exactly(0), postRequestedFor(anyUrl()));
    }

    @Test
    void aCreateAnsweredWithAServerErrorIsFoundOnTheNextTryNotMadeTwice() {
        server.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(urlPathMatching(path("/pulls"))).inScenario("pr")
                .whenScenarioStateIs(STARTED).willReturn(okJson("[]")));
        server.stubFor(post(urlEqualTo(path("/pulls"))).inScenario("pr").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(502)).willSetStateTo("made"));
        server.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(urlPathMatching(path("/pulls"))).inScenario("pr")
                .whenScenarioStateIs("made").willReturn(okJson("[" + pull(12, REVERT_BRANCH) + "]")));

        HostOutcome found = host().openPullRequest(REVERT_BRANCH, "main", "Revert web", "why");

        assertEquals(new HostOutcome.PullRequest("found", 12, "https://git.example.com/acme/fleet/pull/12"), found);
        server.verify(exactly(1), postRequestedFor(anyUrl()));
        assertEquals(List.of(Duration.ofSeconds(1)), slept);
    }

    @Test
    void aRefusedPullRequestIsAFailureWithoutTheToken() {
        server.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(urlPathMatching(path("/pulls"))).willReturn(okJson("[]")));
        server.stubFor(post(urlEqualTo(path("/pulls"))).willReturn(aResponse().withStatus(422).withBody("{\"message\":\"Validation Failed " + TOKEN + "\"}")));

        Failed failed = assertInstanceOf(Failed.class, host().openPullRequest(REVERT_BRANCH, "main", "Revert web", "why"));

        assertEquals(422, failed.httpStatus());
        assertFalse(failed.message().contains(TOKEN), failed.message());
        server.verify(exactly(1), postRequestedFor(anyUrl()));
    }
}
