package dev.windlass.applier.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.support.Fixtures;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Hook;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.HookResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hooks run against a real API server alone (nothing runs Pods, so a Job never finishes here; {@code HooksIT} in the
 * engine runs them on a whole control plane): created anew, named by the server, deleted by policy, refused, timed out,
 * and asked of the server as a dry run.
 */
class HookRunsIT {
    private static RealCluster cluster;
    private static final ActionWrite writes = new ActionWrite(new HookRuns(Duration.ofSeconds(2), Duration.ofMillis(100)));

    @BeforeAll static void start() { cluster = RealCluster.start(); }

    @AfterAll static void stop() { cluster.close(); }

    private static Action hook(Map<String, Object> body, Set<Hook.DeletePolicy> policies) {
        String apiVersion = (String) body.get("apiVersion");
        Map<?, ?> meta = (Map<?, ?>) body.get("metadata");
        boolean generated = meta.get("name") == null;
        String name = (String) (generated ? meta.get("generateName") : meta.get("name"));
        var ref = new ObjectRef(ObjectRef.groupOf(apiVersion), (String) body.get("kind"), (String) meta.get("namespace"), name);
        var h = new Hook(Set.of(Hook.Phase.PreSync), EnumSet.allOf(Hook.Occasion.class), 0, policies, generated, Hook.Source.ArgoCD);
        var m = new Manifest(ref, apiVersion, body, SourceLocation.file("apps/web/hooks.yaml"), ContentHash.of(body), 0,
                Manifest.ApplyMode.ALWAYS, Manifest.GcPolicy.ON_APP_UPDATE, false, h);
        return new Action(Fixtures.APP, RealCluster.NAME, ref, apiVersion, Operation.Create, new ActionReason.HookRun(Hook.Phase.PreSync, 0, true, Hook.Source.ArgoCD),
                List.of(), m, ApplyStrategy.ClientSide, false);
    }

    private static Map<String, Object> configMap(String ns, String nameField, String key) {
        return Fixtures.yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: " + ns + ", " + nameField + "}\ndata: {" + key + ": \"1\"}\n");
    }

    @Test void aNamedHookIsMadeAnewEachRunAndOneNamedByTheServerIsDeletedOnceItSucceeded() {
        String ns = cluster.newNamespace("hooks");
        Action named = hook(configMap(ns, "name: seed", "MODE"), Set.of(Hook.DeletePolicy.BeforeHookCreation));
        ActionResult first = writes.attempt(cluster.admin(), named).result();
        assertEquals(HookResult.Succeeded, first.hook(), first.message());
        assertEquals(Outcome.Created, first.outcome());
        String uid = cluster.admin().configMaps().inNamespace(ns).withName("seed").get().getMetadata().getUid();
        assertEquals(Fixtures.APP, cluster.admin().configMaps().inNamespace(ns).withName("seed").get().getMetadata().getLabels().get("windlass.dev/app"));
        assertEquals(HookResult.Succeeded, writes.attempt(cluster.admin(), named).result().hook());
        assertNotEquals(uid, cluster.admin().configMaps().inNamespace(ns).withName("seed").get().getMetadata().getUid(),
                "BeforeHookCreation: the last run's object was deleted and a new one created");

        Action generated = hook(configMap(ns, "generateName: smoke-", "MODE"), Set.of(Hook.DeletePolicy.HookSucceeded));
        ActionResult smoke = writes.attempt(cluster.admin(), generated).result();
        assertEquals(HookResult.Succeeded, smoke.hook(), smoke.message());
        assertTrue(smoke.message().matches("named smoke-[a-z0-9]{5}"), smoke.message());
        assertEquals(List.of("seed"), cluster.admin().configMaps().inNamespace(ns).list().getItems().stream()
                .map(c -> c.getMetadata().getName()).filter(n -> !n.equals("kube-root-ca.crt")).toList(), "HookSucceeded deleted it");
    }

    @Test void aHookTheServerRefusesOrThatDoesNotFinishInTimeFails() {
        String ns = cluster.newNamespace("hooks");
        ActionResult refused = writes.attempt(cluster.admin(), hook(configMap(ns, "name: bad", "\"not a key!\""), Set.of(Hook.DeletePolicy.BeforeHookCreation))).result();
        assertEquals(HookResult.NotCreated, refused.hook(), refused.message());
        assertFalse(refused.transientFailure());
        assertTrue(refused.message().contains("data[not a key!]"), refused.message());

        Map<String, Object> job = Fixtures.yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {namespace: %s, name: migrate}
                spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: alpine}]}}}
                """.formatted(ns));
        ActionResult waited = writes.attempt(cluster.admin(), hook(job, Set.of(Hook.DeletePolicy.HookFailed))).result();
        assertEquals(HookResult.TimedOut, waited.hook(), "nothing runs Pods on an API server alone: " + waited.message());
        assertEquals("Job migrate did not finish in 2 s", waited.message());
        assertNull(cluster.admin().batch().v1().jobs().inNamespace(ns).withName("migrate").get(), "HookFailed deleted it");
    }

    @Test void aPostSyncHookWaitsForWhatTheSyncAppliedToBeHealthy() {
        String ns = cluster.newNamespace("hooks");
        var config = Fixtures.create(RealCluster.NAME, Fixtures.configMap(ns, "settings", "1"));
        assertEquals(Outcome.Created, writes.attempt(cluster.admin(), config).result().outcome());
        assertTrue(writes.hooks().awaitHealthy(cluster.admin(), List.of(config)).isEmpty(), "a ConfigMap is healthy once it is there");

        var deployment = Fixtures.create(RealCluster.NAME, Fixtures.manifest("apiVersion: apps/v1\nkind: Deployment\nmetadata: {namespace: " + ns
                + ", name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n"
                + "  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}\n"));
        assertEquals(Outcome.Created, writes.attempt(cluster.admin(), deployment).result().outcome());
        var unhealthy = writes.hooks().awaitHealthy(cluster.admin(), List.of(config, deployment));
        assertTrue(unhealthy.isPresent() && unhealthy.get().startsWith("Deployment " + ns + "/web is Progressing"),
                "nothing rolls a Deployment out on an API server alone: " + unhealthy);
    }

    @Test void aDryRunAsksTheServerWithoutCreatingAndDoesNotCheckAHookWhoseLastRunIsDeletedFirst() {
        String ns = cluster.newNamespace("hooks");
        Action named = hook(configMap(ns, "name: seed", "MODE"), Set.of(Hook.DeletePolicy.BeforeHookCreation));
        ActionResult dry = writes.dryRun(cluster.admin(), named).result();
        assertEquals(Outcome.Created, dry.outcome(), dry.message());
        assertNull(cluster.admin().configMaps().inNamespace(ns).withName("seed").get(), "a dry run stores nothing");

        writes.attempt(cluster.admin(), named);
        ActionResult again = writes.dryRun(cluster.admin(), named).result();
        assertEquals(Outcome.Skipped, again.outcome(), again.message());
        assertEquals("dry run: not checked: the hook's last run is deleted first", again.message());
    }
}
