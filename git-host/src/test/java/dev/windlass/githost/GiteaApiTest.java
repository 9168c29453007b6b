package dev.windlass.githost;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import dev.windlass.githost.HostOutcome.Done;
import dev.windlass.githost.HostOutcome.Failed;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** Gitea's dialect: API below /api/v1 (as apiUrl gives it), {@code token} authorization, listings in one answer. */
class GiteaApiTest extends HostApiContract {

    @Override
    HostKind kind() {
        return HostKind.gitea;
    }

    @Override
    String apiRoot() {
        return "/api/v1";
    }

    @Override
    String authorization() {
        return "token " + TOKEN;
    }

    @Override
    MappingBuilder listing(int pull) {
        return get(urlEqualTo("/api/v1/repos/acme/fleet/issues/" + pull + "/comments"));
    }

    @Override
    RequestPatternBuilder listed(int pull) {
        return getRequestedFor(urlEqualTo("/api/v1/repos/acme/fleet/issues/" + pull + "/comments"));
    }

    @Override
    RequestPatternBuilder withDialectHeaders(RequestPatternBuilder request) {
        return request
                .withHeader("Accept", equalTo("application/json"))
                .withHeader("X-GitHub-Api-Version", absent());
    }

    @Test
    void allCommentsComeInOneAnswerWithoutPaging() {
        server.stubFor(get(urlEqualTo("/api/v1/repos/acme/fleet/issues/7/comments"))
                .willReturn(okJson(othersComments(1000, 150))));
        server.stubFor(post(urlEqualTo("/api/v1/repos/acme/fleet/issues/7/comments"))
                .willReturn(created(3000, FIRST_PLAN)));

        assertEquals(new Done("created", 3000), host().upsertComment(PULL, MARKER, FIRST_PLAN, 0));

        server.verify(exactly(1), getRequestedFor(anyUrl()));
        server.verify(exactly(1), getRequestedFor(urlEqualTo("/api/v1/repos/acme/fleet/issues/7/comments"))
                .withQueryParam("page", absent())
                .withHeader("Authorization", equalTo("token " + TOKEN))
                .withHeader("Accept", equalTo("application/json")));
        server.verify(exactly(1), postRequestedFor(urlEqualTo("/api/v1/repos/acme/fleet/issues/7/comments"))
                .withHeader("Authorization", equalTo("token " + TOKEN)));
        server.verify(exactly(0), patchRequestedFor(anyUrl()));
    }

    @Test
    void anApiUrlWithoutApiV1FindsNothingAndSaysWhatToCheck() {
        // A Gitea server answers 404 for API paths outside /api/v1.
        server.stubFor(post(anyUrl()).willReturn(aResponse().withStatus(404).withBody("Not found.")));

        HostOutcome outcome = host(TOKEN, URI.create(server.baseUrl()))
                .setStatus(SHA, CommitState.success, "windlass/plan", "ok", null);

        Failed failed = assertInstanceOf(Failed.class, outcome);
        assertEquals(404, failed.httpStatus());
        assertTrue(failed.message().contains("check review.host apiUrl"), failed.message());
        server.verify(exactly(1), postRequestedFor(urlEqualTo("/repos/acme/fleet/statuses/" + SHA)));
    }
}
