package dev.windlass.githost;

import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import dev.windlass.githost.HostOutcome.Done;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** GitHub's dialect: API at the server root, Bearer tokens, comment listings 100 a page. */
class GitHubApiTest extends HostApiContract {

    @Override
    HostKind kind() {
        return HostKind.github;
    }

    @Override
    String apiRoot() {
        return "";
    }

    @Override
    String authorization() {
        return "Bearer " + TOKEN;
    }

    @Override
    MappingBuilder listing(int pull) {
        return get(urlEqualTo("/repos/acme/fleet/issues/" + pull + "/comments?per_page=100&page=1"));
    }

    @Override
    RequestPatternBuilder listed(int pull) {
        return getRequestedFor(urlEqualTo("/repos/acme/fleet/issues/" + pull + "/comments?per_page=100&page=1"));
    }

    @Override
    RequestPatternBuilder withDialectHeaders(RequestPatternBuilder request) {
        return request
                .withHeader("Accept", equalTo("application/vnd.github+json"))
                .withHeader("X-GitHub-Api-Version", equalTo("2022-11-28"));
    }

    private static MappingBuilder page(int page) {
        return get(urlPathEqualTo("/repos/acme/fleet/issues/7/comments"))
                .withQueryParam("per_page", equalTo("100"))
                .withQueryParam("page", equalTo(Integer.toString(page)));
    }

    private static RequestPatternBuilder pageRead(int page) {
        return getRequestedFor(urlPathEqualTo("/repos/acme/fleet/issues/7/comments"))
                .withQueryParam("per_page", equalTo("100"))
                .withQueryParam("page", equalTo(Integer.toString(page)));
    }

    @Test
    void theMarkedCommentOnPageTwoIsEditedNotDuplicated() {
        server.stubFor(page(1).willReturn(okJson(othersComments(1000, 100))));
        server.stubFor(page(2).willReturn(okJson(comments(comment(2000, "nit: typo"), comment(2001, FIRST_PLAN)))));
        server.stubFor(patch(urlEqualTo("/repos/acme/fleet/issues/comments/2001"))
                .willReturn(okJson(comment(2001, NEXT_PLAN))));

        assertEquals(new Done("edited", 2001), host().upsertComment(PULL, MARKER, NEXT_PLAN, 0));

        server.verify(exactly(1), pageRead(1).withHeader("Authorization", equalTo("Bearer " + TOKEN)));
        server.verify(exactly(1), pageRead(2).withHeader("Authorization", equalTo("Bearer " + TOKEN)));
        server.verify(exactly(0), pageRead(3));
        server.verify(exactly(1), patchRequestedFor(urlEqualTo("/repos/acme/fleet/issues/comments/2001"))
                .withRequestBody(matchingJsonPath("$.body", equalTo(NEXT_PLAN))));
        server.verify(exactly(1), patchRequestedFor(anyUrl()));
        server.verify(exactly(0), postRequestedFor(anyUrl()));
    }

    @Test
    void pagingStopsAtAShortPageAndThenCreates() {
        server.stubFor(page(1).willReturn(okJson(othersComments(1000, 100))));
        server.stubFor(page(2).willReturn(okJson(othersComments(1100, 3))));
        server.stubFor(post(urlEqualTo("/repos/acme/fleet/issues/7/comments")).willReturn(created(3000, FIRST_PLAN)));

        assertEquals(new Done("created", 3000), host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        server.verify(exactly(1), pageRead(1));
        server.verify(exactly(1), pageRead(2));
        server.verify(exactly(0), pageRead(3));
        server.verify(exactly(1), postRequestedFor(urlEqualTo("/repos/acme/fleet/issues/7/comments")));
        server.verify(exactly(0), patchRequestedFor(anyUrl()));
    }

    @Test
    void anEnterpriseApiRootIsUsedAsGiven() {
        server.stubFor(post(urlEqualTo("/api/v3/repos/acme/fleet/statuses/" + SHA))
                .willReturn(okJson("{\"id\":1}").withStatus(201)));

        HostOutcome outcome = host(TOKEN, URI.create(server.baseUrl() + "/api/v3"))
                .setStatus(SHA, CommitState.success, "windlass/plan", "ok", null);

        assertEquals(new Done("status", 0), outcome);
        server.verify(exactly(1), postRequestedFor(urlEqualTo("/api/v3/repos/acme/fleet/statuses/" + SHA))
                .withHeader("Authorization", equalTo("Bearer " + TOKEN)));
    }
}
