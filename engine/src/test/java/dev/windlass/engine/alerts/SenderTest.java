package dev.windlass.engine.alerts;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.windlass.policy.alert.AlertEvent;
import dev.windlass.policy.alert.AlertKind;
import dev.windlass.policy.alert.Provider;
import dev.windlass.policy.alert.ProviderType;
import dev.windlass.policy.model.SourceLocation;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SenderTest {
    static final String SHA = "0123456789abcdef0123456789abcdef01234567";
    static final AddressGuard LOCAL = new AddressGuard(true, java.net.InetAddress::getAllByName);

    WireMockServer wm;
    final Sender sender = new Sender(Duration.ofSeconds(2), new Messages("https://windlass.example.com/"), LOCAL);

    @BeforeEach void start() {
        wm = new WireMockServer(wireMockConfig().dynamicPort());
        wm.start();
    }

    @AfterEach void stop() { wm.stop(); }

    static Delivery delivery(AlertKind kind) {
        AlertEvent e = new AlertEvent("e-" + kind, kind, kind.severity(), "web", "eu-1", "r2", SHA, 1, "Failed", "failed on eu-1",
                Instant.parse("2026-11-27T10:00:00Z"));
        return Delivery.pending(e, "p", "feedfacecafebeef00112233");
    }

    static Endpoint endpoint(ProviderType type, URI address, String token, String hmacKey) {
        SourceLocation at = SourceLocation.file("alerts.yaml");
        return new Endpoint(new Provider("p", type, null, "s", type.commitStatus() ? "acme/fleet" : null, at, at), address, token, hmacKey);
    }

    URI wm(String path) { return URI.create("http://127.0.0.1:" + wm.port() + path); }

    @Test
    void aWebhookIsACloudEventSignedWithTheKey() throws Exception {
        try (Receiver receiver = new Receiver("hmac-key-1")) {
            Sender.Outcome o = sender.send(endpoint(ProviderType.webhook, receiver.address(), null, "hmac-key-1"), delivery(AlertKind.WaveFailed));
            assertInstanceOf(Sender.Outcome.Sent.class, o);
            assertEquals(1, receiver.accepted.size(), receiver.refused.toString());
            JsonNode ce = receiver.accepted.get(0);
            assertEquals("1.0", ce.get("specversion").asText());
            assertEquals("e-WaveFailed", ce.get("id").asText());
            assertEquals("dev.windlass.alert.WaveFailed", ce.get("type").asText());
            assertEquals("apps/web/clusters/eu-1", ce.get("subject").asText());
            assertEquals("2026-11-27T10:00:00Z", ce.get("time").asText());
            JsonNode data = ce.get("data");
            assertEquals("web", data.get("application").asText());
            assertEquals("eu-1", data.get("cluster").asText());
            assertEquals("r2", data.get("revision").asText());
            assertEquals(SHA, data.get("commit").asText());
            assertEquals("feedfacecafebeef00112233", data.get("planHash").asText());
            assertEquals("https://windlass.example.com/apps/web", data.get("dashboard").asText());

            // Signed with another key: the receiver refuses it, and the sender does not try again (a 4xx).
            Sender.Outcome wrong = sender.send(endpoint(ProviderType.webhook, receiver.address(), null, "another-key"), delivery(AlertKind.WaveFailed));
            assertEquals(new Sender.Outcome.Refused("answered 400"), wrong);
            assertEquals(java.util.List.of("bad signature"), receiver.refused);
        }
    }

    @Test
    void slackAndTeamsGetTheirIncomingWebhookFormats() {
        wm.stubFor(post(urlEqualTo("/services/T/B/X")).willReturn(aResponse().withStatus(200).withBody("ok")));
        wm.stubFor(post(urlEqualTo("/webhookb2/x")).willReturn(aResponse().withStatus(200).withBody("1")));
        assertInstanceOf(Sender.Outcome.Sent.class, sender.send(endpoint(ProviderType.slack, wm("/services/T/B/X"), null, null), delivery(AlertKind.RolledBack)));
        assertInstanceOf(Sender.Outcome.Sent.class, sender.send(endpoint(ProviderType.msteams, wm("/webhookb2/x"), null, null), delivery(AlertKind.RolledBack)));
        wm.verify(postRequestedFor(urlEqualTo("/services/T/B/X")).withHeader("Content-Type", equalTo("application/json"))
                .withRequestBody(matchingJsonPath("$.text", equalTo("[error] web on eu-1: rolled back (wave 1) at r2\nfailed on eu-1\nApplication: web\n"
                        + "Cluster: eu-1\nRevision: r2\nConfig commit: 0123456789ab\nPlan: feedfacecafe\nDashboard: https://windlass.example.com/apps/web"))));
        wm.verify(postRequestedFor(urlEqualTo("/webhookb2/x"))
                .withRequestBody(matchingJsonPath("$.@type", equalTo("MessageCard")))
                .withRequestBody(matchingJsonPath("$.title", equalTo("[error] web on eu-1: rolled back (wave 1) at r2")))
                .withRequestBody(matchingJsonPath("$.sections[0].facts[?(@.name == 'Plan')].value", equalTo("feedfacecafe")))
                .withRequestBody(matchingJsonPath("$.potentialAction[0].targets[0].uri", equalTo("https://windlass.example.com/apps/web"))));
    }

    @Test
    void gitHubAndGiteaGetACommitStatusOnTheConfigCommit() {
        wm.stubFor(post(urlEqualTo("/repos/acme/fleet/statuses/" + SHA)).willReturn(aResponse().withStatus(201).withBody("{\"id\":1}")));
        wm.stubFor(post(urlEqualTo("/api/v1/repos/acme/fleet/statuses/" + SHA)).willReturn(aResponse().withStatus(201).withBody("{\"id\":1}")));
        assertInstanceOf(Sender.Outcome.Sent.class, sender.send(endpoint(ProviderType.github, wm(""), "ghp_token", null), delivery(AlertKind.RolledBack)));
        assertInstanceOf(Sender.Outcome.Sent.class, sender.send(endpoint(ProviderType.gitea, wm("/api/v1"), "gitea_token", null), delivery(AlertKind.RolloutStarted)));
        wm.verify(postRequestedFor(urlEqualTo("/repos/acme/fleet/statuses/" + SHA)).withHeader("Authorization", equalTo("Bearer ghp_token"))
                .withRequestBody(equalToJson("{\"state\":\"failure\",\"context\":\"windlass/web\",\"description\":\"[error] web on eu-1: rolled back (wave 1) at r2\","
                        + "\"target_url\":\"https://windlass.example.com/apps/web\"}")));
        wm.verify(postRequestedFor(urlEqualTo("/api/v1/repos/acme/fleet/statuses/" + SHA)).withHeader("Authorization", equalTo("token gitea_token"))
                .withRequestBody(matchingJsonPath("$.state", equalTo("pending"))));
        assertEquals(new Sender.Outcome.Refused("sets no commit status"),
                sender.send(endpoint(ProviderType.github, wm(""), "ghp_token", null), delivery(AlertKind.WaveStarted)));
    }

    @Test
    void serverErrorsAreTriedAgainAndRefusalsAreNot() {
        wm.stubFor(post(urlEqualTo("/busy")).willReturn(aResponse().withStatus(503)));
        wm.stubFor(post(urlEqualTo("/gone")).willReturn(aResponse().withStatus(404)));
        wm.stubFor(post(urlEqualTo("/moved")).willReturn(aResponse().withStatus(302).withHeader("Location", "http://169.254.169.254/")));
        assertEquals(new Sender.Outcome.TryAgain("answered 503"), sender.send(endpoint(ProviderType.slack, wm("/busy"), null, null), delivery(AlertKind.WaveFailed)));
        assertEquals(new Sender.Outcome.Refused("answered 404"), sender.send(endpoint(ProviderType.slack, wm("/gone"), null, null), delivery(AlertKind.WaveFailed)));
        assertEquals(new Sender.Outcome.Refused("answered 302"), sender.send(endpoint(ProviderType.slack, wm("/moved"), null, null), delivery(AlertKind.WaveFailed)),
                "a redirect is never followed");
    }

    @Test
    void theAddressIsCheckedAgainBeforeEachSend() {
        Sender strict = new Sender(Duration.ofSeconds(2), new Messages(null), AddressGuardTest.STRICT);
        Sender.Outcome o = strict.send(endpoint(ProviderType.webhook, URI.create("http://me.example.test:" + wm.port() + "/x"), null, null), delivery(AlertKind.WaveFailed));
        assertInstanceOf(Sender.Outcome.Refused.class, o);
        assertTrue(((Sender.Outcome.Refused) o).why().contains("127.0.0.1) is a loopback address"), o.toString());
        assertEquals(0, wm.getAllServeEvents().size());
    }
}
