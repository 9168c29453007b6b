package dev.windlass.engine;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.windlass.engine.alerts.AlertSettings;
import dev.windlass.engine.alerts.Delivery;
import dev.windlass.engine.alerts.DeliverySettings;
import dev.windlass.engine.alerts.Receiver;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.policy.state.RolloutState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts end to end on sandbox clusters: a rollout of web fails in wave 2 and is rolled back; a webhook receiver (which
 * checks the signature), Slack, GitHub and Gitea hear of it, in order, once each, across two engine restarts and a
 * stretch where the webhook never answers.
 */
class AlertsE2E {
    static final String HMAC_KEY = "a-key-only-the-receiver-and-the-engine-know";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    static String alerts(int wireMockPort, String hookAddress) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: hook}
                spec: {type: webhook, address: "%s", secretRef: {name: hook}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: chat}
                spec: {type: slack, secretRef: {name: chat}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: github}
                spec: {type: github, address: "http://127.0.0.1:%d", repository: acme/fleet, secretRef: {name: github}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: gitea}
                spec: {type: gitea, address: "http://127.0.0.1:%d/api/v1", repository: acme/fleet, secretRef: {name: gitea}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: frontend-waves}
                spec:
                  providerRef: {name: hook}
                  eventKinds: [WaveStarted, WaveFailed, RolledBack]
                  applicationSelector: {matchLabels: {tier: frontend}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: rollbacks-to-chat}
                spec: {providerRef: {name: chat}, eventKinds: [RolledBack]}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: statuses}
                spec: {providerRef: {name: github}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: gitea-statuses}
                spec: {providerRef: {name: gitea}}
                """.formatted(hookAddress, wireMockPort, wireMockPort);
    }

    void secret(String name, String key, String value) throws Exception {
        Files.createDirectories(dir.resolve("secrets").resolve(name));
        Files.writeString(dir.resolve("secrets").resolve(name).resolve(key), value);
    }

    Engine engine(TestFleet fleet, String name, boolean allowPrivate) throws Exception {
        return engine(fleet, dir, name, allowPrivate);
    }

    /** An engine on {@code fleet}'s origin with its own mirror under {@code dir}, sending alerts with the Secrets in {@code dir/secrets}. */
    static Engine engine(TestFleet fleet, Path dir, String name, boolean allowPrivate) throws Exception {
        Engine e = new Engine(Mirror.open(dir.resolve(name), GitRemote.anonymous(fleet.origin.toString())), "main", "windlass/status", fleet.sandbox,
                fleet.clock, System::getenv, dev.windlass.applier.cluster.ClientSettings.DEFAULT, dev.windlass.applier.cluster.ManagementCluster.NONE);
        e.alertWith(new AlertSettings(dir.resolve("secrets"), allowPrivate, "https://windlass.example.com",
                new DeliverySettings(Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMillis(500), 1000, 100)));
        return e;
    }

    static PassReport pass(TestFleet fleet, Engine e, Duration step) throws Exception {
        fleet.backend.advance(fleet.clock, step);
        if (!e.awaitWatchesCurrent(Duration.ofSeconds(10))) throw new AssertionError("watches did not catch up");
        return e.reconciler().reconcile();
    }

    static void await(String what, BooleanSupplier done) throws InterruptedException {
        await(what, done, () -> "");
    }

    static void await(String what, BooleanSupplier done, java.util.function.Supplier<String> state) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (done.getAsBoolean()) return;
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting until " + what + "; " + state.get());
    }

    static List<String> events(Receiver r) {
        return r.accepted.stream().map(n -> n.get("type").asText().replace("dev.windlass.alert.", "")
                + (n.get("data").has("wave") ? " " + n.get("data").get("wave").asInt() : "")).toList();
    }

    static List<String> statuses(WireMockServer wm, String prefix) {
        return wm.findAll(postRequestedFor(urlPathMatching(prefix + "/repos/acme/fleet/statuses/.*"))).stream().map(LoggedRequest::getBodyAsString)
                .map(b -> {
                    try {
                        JsonNode n = JSON.readTree(b);
                        return n.get("state").asText() + " " + n.get("context").asText();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }).toList();
    }

    @Test
    void aFailedRolloutIsToldInOrderOnceEachAcrossRestartsAndAHungReceiver() throws Exception {
        WireMockServer wm = new WireMockServer(wireMockConfig().dynamicPort());
        wm.start();
        wm.stubFor(post(urlPathMatching(".*/statuses/.*")).willReturn(aResponse().withStatus(201).withBody("{\"id\":1}")));
        wm.stubFor(post(urlEqualTo("/services/T/B/X")).willReturn(aResponse().withStatus(200).withBody("ok")));
        try (Receiver receiver = new Receiver(HMAC_KEY); TestFleet fleet = new TestFleet(dir.resolve("fleet"))) {
            secret("hook", "hmacKey", HMAC_KEY);
            secret("chat", "address", "http://127.0.0.1:" + wm.port() + "/services/T/B/X");
            secret("github", "token", "ghp_test");
            secret("gitea", "token", "gitea_test");
            fleet.push("fleet with waves", c -> TestFleet.examples(fleet).apply(c).write("policies/rollout.yaml", RolloutContract.policy("Rollback")));
            fleet.settle();
            fleet.push("alerts", c -> c.write("alerts/alerts.yaml", alerts(wm.port(), receiver.address().toString())));

            // Engine A starts the rollout: wave 1 (the canary eu-1) is recorded as started, and the webhook hears of it.
            Engine a = engine(fleet, "engine-a", true);
            fleet.backend.noRoomForNewPods("eu-2", true);
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            String config = fleet.head("main");
            PassReport first = pass(fleet, a, Duration.ZERO);
            assertTrue(first.desired().diagnostics().stream().noneMatch(d -> d.isError()), first.desired().diagnostics().toString());
            await("the webhook has wave 1 started", () -> receiver.accepted.size() == 1);
            await("its delivery is recorded", () -> {
                try {
                    String file = fleet.statusFile("status/alerts.yaml");
                    return file != null && !file.contains("state: Pending") && file.contains("state: Delivered");
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            a.close();

            // Engine B goes on after a restart; the webhook stops answering. Passes go on: the rollout fails and is rolled back.
            receiver.hang.set(true);
            Engine b = engine(fleet, "engine-b", true);
            for (int i = 0; i < 40 && !rolledBack(b); i++) pass(fleet, b, Duration.ofSeconds(10));
            assertEquals(RolloutState.Result.RolledBack, b.reconciler().state().apps().get("web").rollout().result());
            assertEquals(List.of("WaveStarted 1"), events(receiver), "nothing more accepted while the receiver hangs");
            assertTrue(b.reconciler().deliveries().stream().anyMatch(d -> d.provider().equals("hook") && d.state() == Delivery.State.Pending),
                    "what the webhook has not taken is pending");

            // The receiver answers again: what waited is delivered, in the order it happened.
            receiver.hang.set(false);
            await("the webhook has all four", () -> receiver.accepted.size() >= 4, () -> events(receiver) + " " + b.reconciler().deliveries());
            await("every delivery is recorded", () -> b.reconciler().deliveries().stream().noneMatch(d -> d.state() == Delivery.State.Pending));
            b.close();

            // Engine C, after a second restart, sends nothing again.
            Engine c = engine(fleet, "engine-c", true);
            for (int i = 0; i < 3; i++) pass(fleet, c, Duration.ofSeconds(10));
            // Nothing pending: nothing of engine C's is in flight to the receiver when it is counted.
            await("engine C has nothing pending", () -> c.reconciler().deliveries().stream().noneMatch(d -> d.state() == Delivery.State.Pending));
            c.close();

            assertEquals(List.of("WaveStarted 1", "WaveStarted 2", "WaveFailed 2", "RolledBack"), events(receiver));
            assertEquals(4, new HashSet<>(receiver.accepted.stream().map(n -> n.get("id").asText()).toList()).size(), "four events, each once");
            assertEquals(List.of(), receiver.refused, "every body was signed with the key");
            JsonNode rolledBack = receiver.accepted.get(3).get("data");
            assertEquals("web", rolledBack.get("application").asText());
            assertEquals(config, rolledBack.get("commit").asText());
            assertEquals("https://windlass.example.com/apps/web", rolledBack.get("dashboard").asText());
            assertFalse(rolledBack.get("planHash").asText().isEmpty());
            assertEquals("eu-2", receiver.accepted.get(2).get("data").get("cluster").asText());

            assertEquals(List.of("pending windlass/web", "failure windlass/web"), statuses(wm, ""), "GitHub: one status per event, on the config commit");
            assertEquals(List.of("pending windlass/web", "failure windlass/web"), statuses(wm, "/api/v1"), "Gitea likewise");
            assertTrue(wm.findAll(postRequestedFor(urlPathMatching(".*/statuses/.*"))).stream().allMatch(r -> r.getUrl().endsWith("/statuses/" + config)));
            assertEquals(1, wm.findAll(postRequestedFor(urlEqualTo("/services/T/B/X"))).size(), "Slack: the rollback, once");

            // Without --alerts-allow-private-addresses, a Provider on 127.0.0.1 is a located error on that Provider; the pass goes on.
            Engine strict = engine(fleet, "engine-strict", false);
            PassReport refused = pass(fleet, strict, Duration.ofSeconds(10));
            List<String> errors = refused.desired().diagnostics().stream().filter(d -> d.isError()).map(Object::toString).toList();
            assertTrue(errors.contains("alerts/alerts.yaml:4:32: Provider 'hook' may not be called: 127.0.0.1 is a loopback address; the engine sends "
                    + "alerts only to public addresses unless it runs with --alerts-allow-private-addresses"), errors.toString());
            assertTrue(errors.stream().noneMatch(e -> e.contains(HMAC_KEY) || e.contains("/services/T/B/X")), "no Secret value in an error: " + errors);
            assertTrue(refused.desired().apps().containsKey("web"));
            strict.close();
        } finally {
            wm.stop();
        }
    }

    @Test
    void aChangeSelfHealSetsBackIsToldOnceAsDriftCorrected() throws Exception {
        try (Receiver receiver = new Receiver(HMAC_KEY); TestFleet fleet = new TestFleet(dir.resolve("fleet"))) {
            secret("hook", "hmacKey", HMAC_KEY);
            fleet.push("fleet, drift told to a webhook", c -> TestFleet.examples(fleet).apply(c).write("alerts/drift.yaml", """
                    apiVersion: windlass.dev/v1alpha1
                    kind: Provider
                    metadata: {name: hook}
                    spec: {type: webhook, address: "%s", secretRef: {name: hook}}
                    ---
                    apiVersion: windlass.dev/v1alpha1
                    kind: Alert
                    metadata: {name: drift}
                    spec: {providerRef: {name: hook}, eventKinds: [DriftCorrected]}
                    """.formatted(receiver.address())));
            Engine e = engine(fleet, "engine-drift", true);
            for (int i = 0; i < 30; i++) {
                PassReport r = pass(fleet, e, Duration.ofSeconds(5));
                if (!r.committed() && !r.plan().hasChanges()) break;
            }
            assertEquals(List.of(), events(receiver), "nothing was corrected yet");

            // Someone turns api's logs up by hand on eu-1; api has selfHeal, so the next pass sets Git's value back.
            try (var c = fleet.sandbox.cluster("eu-1").newClient()) {
                c.configMaps().inNamespace("api").withName("api-config").edit(cm -> {
                    cm.getData().put("LOG_LEVEL", "trace");
                    return cm;
                });
            }
            pass(fleet, e, Duration.ofSeconds(5));
            await("the webhook has the correction", () -> receiver.accepted.size() == 1, () -> e.reconciler().deliveries().toString());
            try (var c = fleet.sandbox.cluster("eu-1").newClient()) {
                assertEquals("info", c.configMaps().inNamespace("api").withName("api-config").get().getData().get("LOG_LEVEL"), "Git's value is back");
            }
            JsonNode data = receiver.accepted.get(0).get("data");
            assertEquals(List.of("DriftCorrected"), events(receiver));
            assertEquals("api", data.get("application").asText());
            assertEquals("eu-1", data.get("cluster").asText());
            assertTrue(data.get("detail").asText().startsWith("1 object set back: ConfigMap api/api-config"), data.toString());

            // The next passes find nothing to set back: no second message.
            pass(fleet, e, Duration.ofSeconds(5));
            pass(fleet, e, Duration.ofSeconds(5));
            await("nothing pending", () -> e.reconciler().deliveries().stream().noneMatch(d -> d.state() == Delivery.State.Pending));
            assertEquals(List.of("DriftCorrected"), events(receiver), "told once");
            e.close();
        }
    }

    static boolean rolledBack(Engine e) throws Exception {
        var r = e.reconciler().state().apps().get("web").rollout();
        return r != null && r.result() == RolloutState.Result.RolledBack;
    }
}
