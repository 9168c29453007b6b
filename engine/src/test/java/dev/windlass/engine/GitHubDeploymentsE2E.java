package dev.windlass.engine;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.windlass.engine.alerts.Delivery;
import dev.windlass.engine.alerts.FakeGitHubDeployments;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.state.RolloutState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rollout in waves told to GitHub Deployments (WireMock as GitHub, keeping the deployments it is asked to make): one
 * deployment per cluster in the environment web/&lt;cluster&gt;, on the config commit of the rollout, its statuses
 * following the waves; a failed wave is a failure and a rollback sets the others inactive; a lost answer makes no
 * second deployment.
 */
class GitHubDeploymentsE2E {
    @TempDir Path dir;

    static String alerts(int port) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Provider
                metadata: {name: deployments}
                spec: {type: githubdeployments, address: "http://127.0.0.1:%d", repository: acme/fleet, secretRef: {name: github}}
                ---
                apiVersion: windlass.dev/v1alpha1
                kind: Alert
                metadata: {name: deployments}
                spec: {providerRef: {name: deployments}}
                """.formatted(port);
    }

    /** Each deployment's environment with its statuses, oldest first. */
    static Map<String, List<String>> byEnvironment(FakeGitHubDeployments gh) {
        Map<String, List<String>> out = new TreeMap<>();
        for (FakeGitHubDeployments.Deployment d : gh.deployments()) out.put(d.environment(), d.statuses());
        return out;
    }

    /**
     * Starts a fleet with waves and the Provider, pushes web 1.5.0 and passes until its rollout ends; the config commit of web 1.5.0.
     *
     * @param full a cluster where the new Pods find no room (its wave fails), or null
     */
    String rollOut(TestFleet fleet, WireMockServer wm, Engine[] engine, String full) throws Exception {
        Files.createDirectories(dir.resolve("secrets/github"));
        Files.writeString(dir.resolve("secrets/github/token"), "ghp_test_token");
        fleet.push("fleet with waves", c -> TestFleet.examples(fleet).apply(c).write("policies/rollout.yaml", RolloutContract.policy("Rollback")));
        fleet.settle();
        fleet.push("deployments", c -> c.write("alerts/deployments.yaml", alerts(wm.port())));
        engine[0] = AlertsE2E.engine(fleet, dir, "engine", true);
        if (full != null) fleet.backend.noRoomForNewPods(full, true);
        fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
        String config = fleet.head("main");
        PassReport first = AlertsE2E.pass(fleet, engine[0], Duration.ZERO);
        assertTrue(first.desired().diagnostics().stream().noneMatch(d -> d.isError()), first.desired().diagnostics().toString());
        for (int i = 0; i < 60 && engine[0].reconciler().state().apps().get("web").rollout().active(); i++) {
            AlertsE2E.pass(fleet, engine[0], Duration.ofSeconds(10));
        }
        Engine e = engine[0];
        AlertsE2E.await("every delivery is done", () -> e.reconciler().deliveries().stream().noneMatch(d -> d.state() == Delivery.State.Pending),
                () -> e.reconciler().deliveries().toString());
        return config;
    }

    static WireMockServer gitHub(FakeGitHubDeployments gh) {
        WireMockServer wm = new WireMockServer(wireMockConfig().dynamicPort().extensions(gh));
        wm.start();
        wm.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500)));
        return wm;
    }

    @Test
    void aRolloutInWavesIsOneDeploymentPerClusterGoingInProgressThenSuccess() throws Exception {
        FakeGitHubDeployments gh = new FakeGitHubDeployments("acme/fleet");
        gh.loseCreateAnswers.set(1);   // the first deployment is made but its answer is lost: the retry must find it
        gh.failStatusPosts.set(1);     // and one status post fails once
        WireMockServer wm = gitHub(gh);
        Engine[] engine = new Engine[1];
        try (TestFleet fleet = new TestFleet(dir.resolve("fleet"))) {
            String config = rollOut(fleet, wm, engine, null);
            assertEquals(RolloutState.Result.Succeeded, engine[0].reconciler().state().apps().get("web").rollout().result());
            String revision = engine[0].reconciler().state().apps().get("web").rollout().revision();
            engine[0].close();

            assertEquals(Map.of("web/eu-1", List.of("in_progress", "success"), "web/eu-2", List.of("in_progress", "success"),
                    "web/us-1", List.of("in_progress", "success")), byEnvironment(gh), "one deployment per cluster, in progress then success");
            assertEquals(3, gh.deployments().size(), "no second deployment for the create whose answer was lost");
            assertEquals(0, gh.loseCreateAnswers.get(), "the answer to the first create was lost (502): its delivery was tried again");
            assertEquals(0, gh.failStatusPosts.get(), "a status post was answered 502 once");
            assertEquals(3, gh.creates.get(), "the retry found the deployment whose answer was lost and made none again");
            for (FakeGitHubDeployments.Deployment d : gh.deployments()) {
                assertEquals(config, d.ref(), "on the config commit of web 1.5.0");
                assertEquals("web", d.payload().get("application").asText());
                assertEquals(revision, d.payload().get("revision").asText());
                assertEquals("Bearer ghp_test_token", d.token());
            }
        } finally {
            wm.stop();
        }
    }

    @Test
    void aFailedWaveIsAFailureAndTheRollbackSetsTheOthersInactive() throws Exception {
        FakeGitHubDeployments gh = new FakeGitHubDeployments("acme/fleet");
        WireMockServer wm = gitHub(gh);
        Engine[] engine = new Engine[1];
        try (TestFleet fleet = new TestFleet(dir.resolve("fleet"))) {
            String config = rollOut(fleet, wm, engine, "eu-2");
            assertEquals(RolloutState.Result.RolledBack, engine[0].reconciler().state().apps().get("web").rollout().result());
            engine[0].close();

            assertEquals(Map.of("web/eu-1", List.of("in_progress", "success", "inactive"), "web/eu-2", List.of("in_progress", "failure")),
                    byEnvironment(gh), "the canary succeeded and was set back; eu-2 failed; us-1 was never started");
            assertTrue(gh.deployments().stream().allMatch(d -> d.ref().equals(config)));
        } finally {
            wm.stop();
        }
    }
}
