package dev.windlass.engine;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.windlass.engine.alerts.Delivery;
import dev.windlass.engine.alerts.Receiver;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.state.RolloutState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed rollout offered as a revert pull request, end to end on sandbox clusters: web 1.5.0 fails on eu-2 and is
 * rolled back; the engine pushes {@code windlass/revert/web-<revision>} to the origin, restoring apps/web/manifests to
 * 1.4.2, and asks GitHub (WireMock) once for a pull request into main; a webhook hears RevertProposed; a restarted engine
 * asks nothing more, and merging the pull request makes web's revision at the tip the good one again.
 */
class RevertPullRequestE2E {
    static final String HMAC_KEY = "a-key-only-the-receiver-and-the-engine-know";
    static final String FOLDER = "apps/web/manifests";

    @TempDir Path dir;

    static String policy() {
        return RolloutContract.policy("Rollback") + "  revertPullRequest: {providerRef: {name: config-repo}}\n";
    }

    static String providers(int port, String hook) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: config-repo}
                spec: {type: github, address: "http://127.0.0.1:%d", repository: acme/fleet, secretRef: {name: github}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: hook}
                spec: {type: webhook, address: "%s", secretRef: {name: hook}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: reverts}
                spec: {providerRef: {name: hook}, eventKinds: [RolledBack, RevertProposed]}
                """.formatted(port, hook);
    }

    void secret(String name, String key, String value) throws Exception {
        Files.createDirectories(dir.resolve("secrets").resolve(name));
        Files.writeString(dir.resolve("secrets").resolve(name).resolve(key), value);
    }

    static String pull(String branch) {
        return "{\"number\":1,\"html_url\":\"https://github.example.com/acme/fleet/pull/1\",\"head\":{\"ref\":\"" + branch + "\"}}";
    }

    @Test
    void aRolledBackRevisionIsOfferedOnceAsAPullRequestRestoringTheGoodFiles() throws Exception {
        WireMockServer wm = new WireMockServer(wireMockConfig().dynamicPort());
        wm.start();
        try (Receiver receiver = new Receiver(HMAC_KEY); TestFleet fleet = new TestFleet(dir.resolve("fleet"))) {
            secret("github", "token", "ghp_test");
            secret("hook", "hmacKey", HMAC_KEY);
            fleet.push("fleet with waves", c -> TestFleet.examples(fleet).apply(c).write("policies/rollout.yaml", policy())
                    .write("alerts/providers.yaml", providers(wm.port(), receiver.address().toString())));
            fleet.settle();
            String good = fleet.head("main");

            Engine a = AlertsE2E.engine(fleet, dir, "engine-a", true);
            fleet.backend.noRoomForNewPods("eu-2", true);
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            String bad = fleet.head("main");
            String badRevision = AlertsE2E.pass(fleet, a, Duration.ZERO).desired().apps().get("web").revision();
            String branch = "windlass/revert/web-" + badRevision.substring(0, 7);
            // GitHub as the engine meets it: no pull request from the branch until one is made, then that one.
            wm.stubFor(get(urlPathEqualTo("/repos/acme/fleet/pulls")).inScenario("pr").whenScenarioStateIs(STARTED).willReturn(aResponse().withStatus(200).withBody("[]")));
            wm.stubFor(post(urlEqualTo("/repos/acme/fleet/pulls")).inScenario("pr").whenScenarioStateIs(STARTED)
                    .willReturn(aResponse().withStatus(201).withBody(pull(branch))).willSetStateTo("opened"));
            wm.stubFor(get(urlPathEqualTo("/repos/acme/fleet/pulls")).inScenario("pr").whenScenarioStateIs("opened")
                    .willReturn(aResponse().withStatus(200).withBody("[" + pull(branch) + "]")));

            for (int i = 0; i < 40 && !AlertsE2E.rolledBack(a); i++) AlertsE2E.pass(fleet, a, Duration.ofSeconds(10));
            RolloutState rollout = a.reconciler().state().apps().get("web").rollout();
            assertEquals(RolloutState.Result.RolledBack, rollout.result());
            String goodRevision = rollout.previousRevision();
            AlertsE2E.pass(fleet, a, Duration.ofSeconds(10));

            // Exactly one pull request, from the revert branch into the config branch, titled with what failed where.
            List<LoggedRequest> created = wm.findAll(postRequestedFor(urlEqualTo("/repos/acme/fleet/pulls")));
            assertEquals(1, created.size());
            JsonNode body = AlertsE2E.JSON.readTree(created.get(0).getBodyAsString());
            assertEquals(branch, body.get("head").asText());
            assertEquals("main", body.get("base").asText());
            assertEquals("Revert web to " + goodRevision.substring(0, 7) + ": rollout of " + badRevision.substring(0, 7) + " failed on eu-2",
                    body.get("title").asText());
            assertTrue(body.get("body").asText().contains("restores `" + FOLDER + "/` to what commit `" + good + "` had"), body.get("body").asText());
            assertTrue(created.get(0).getHeader("Authorization").equals("Bearer ghp_test"));

            // The branch is on the origin: one commit on the failed config commit, the app's files as the good commit had them.
            try (Repository origin = new FileRepositoryBuilder().setGitDir(fleet.origin.toFile()).build(); RevWalk walk = new RevWalk(origin)) {
                ObjectId tip = origin.resolve("refs/heads/" + branch);
                assertNotNull(tip, "the revert branch is pushed");
                RevCommit revert = walk.parseCommit(tip);
                assertEquals(bad, revert.getParent(0).name());
                assertEquals(subtree(origin, good, FOLDER), subtree(origin, tip.name(), FOLDER), FOLDER + " is as the good commit had it");
                assertEquals(subtree(origin, bad, "alerts"), subtree(origin, tip.name(), "alerts"), "nothing else is touched");
                assertTrue(revert.getFullMessage().contains(badRevision) && revert.getFullMessage().contains("eu-2"), revert.getFullMessage());
                assertTrue(RolloutContract.web("1.4.2").equals(new String(origin.open(TreeWalk.forPath(origin, RolloutContract.DEPLOYMENT, revert.getTree())
                        .getObjectId(0)).getBytes(), java.nio.charset.StandardCharsets.UTF_8)));
            }
            String recorded = fleet.statusFile("status/reverts.yaml");
            assertTrue(recorded.contains("state: Opened") && recorded.contains("number: 1") && recorded.contains("branch: " + branch), recorded);

            // Chat hears of it, with the pull request's address.
            AlertsE2E.await("the webhook has RevertProposed", () -> AlertsE2E.events(receiver).contains("RevertProposed"),
                    () -> AlertsE2E.events(receiver) + " " + a.reconciler().deliveries());
            JsonNode told = receiver.accepted.stream().filter(n -> n.get("type").asText().endsWith("RevertProposed")).findFirst().orElseThrow().get("data");
            assertEquals("web", told.get("application").asText());
            assertTrue(told.get("detail").asText().contains("https://github.example.com/acme/fleet/pull/1"), told.toString());
            AlertsE2E.await("nothing pending", () -> a.reconciler().deliveries().stream().noneMatch(d -> d.state() == Delivery.State.Pending));
            a.close();

            // A restarted engine reads what was offered and asks the Git host nothing more.
            int requests = wm.findAll(anyRequestedFor(urlPathMatching(".*"))).size();
            Engine b = AlertsE2E.engine(fleet, dir, "engine-b", true);
            for (int i = 0; i < 3; i++) AlertsE2E.pass(fleet, b, Duration.ofSeconds(10));
            assertEquals(requests, wm.findAll(anyRequestedFor(urlPathMatching(".*"))).size(), "nothing more asked of GitHub");
            assertEquals(1, wm.findAll(postRequestedFor(urlEqualTo("/repos/acme/fleet/pulls"))).size());

            // The team merges the pull request: Git agrees with the rollback (web's revision at the tip is the good one again),
            // the clusters keep 1.4.2, and nothing more is offered.
            fleet.merge(branch);
            PassReport merged = null;
            for (int i = 0; i < 3; i++) merged = AlertsE2E.pass(fleet, b, Duration.ofSeconds(10));
            assertEquals(goodRevision, merged.desired().apps().get("web").revision());
            for (String cluster : List.of("eu-1", "eu-2", "us-1")) assertEquals("1.4.2", RolloutContract.image(fleet, cluster), cluster);
            assertEquals(requests, wm.findAll(anyRequestedFor(urlPathMatching(".*"))).size(), "nothing more asked of GitHub after the merge");
            b.close();

            // Without --alerts-allow-private-addresses, the Provider on 127.0.0.1 is a located error, and nothing is offered through it.
            Engine strict = AlertsE2E.engine(fleet, dir, "engine-strict", false);
            PassReport refused = AlertsE2E.pass(fleet, strict, Duration.ofSeconds(10));
            List<String> errors = refused.desired().diagnostics().stream().filter(d -> d.isError()).map(Object::toString).toList();
            assertTrue(errors.contains("alerts/providers.yaml:4:31: Provider 'config-repo' may not be called: 127.0.0.1 is a loopback address; the engine "
                    + "sends alerts only to public addresses unless it runs with --alerts-allow-private-addresses"), errors.toString());
            strict.close();
        } finally {
            wm.stop();
        }
    }

    /** The tree id of {@code folder} at {@code commit}. */
    static ObjectId subtree(Repository repo, String commit, String folder) throws Exception {
        try (RevWalk walk = new RevWalk(repo); TreeWalk tw = TreeWalk.forPath(repo, folder, walk.parseCommit(ObjectId.fromString(commit)).getTree())) {
            return tw == null ? null : tw.getObjectId(0);
        }
    }
}
