package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.kube.JsonTree;
import dev.windlass.applier.kube.OwnershipMarks;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Create, re-apply and update through the three-way merge, against a mock API server over HTTP. */
class ClientSideApplyTest {

    private static final String V1 = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              namespace: demo
              labels: {tier: frontend}
            spec:
              replicas: 2
              minReadySeconds: 5
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers:
                  - name: web
                    image: nginx:1.25
                    ports: [{containerPort: 80}]
            """;

    /** Image bumped; minReadySeconds and the tier label removed from Git. */
    private static final String V2 = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              namespace: demo
            spec:
              replicas: 2
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers:
                  - name: web
                    image: nginx:1.27
                    ports: [{containerPort: 80}]
            """;

    private final MockCluster cluster = MockCluster.crud();
    private final ActionWrite apply = new ActionWrite();

    @AfterEach void stop() { cluster.close(); }

    @Test void createsWithOwnershipMarksWithoutTouchingTheManifest() {
        Manifest v1 = manifest(V1);
        Map<String, Object> bodyBefore = JsonTree.copy(v1.body());

        ActionResult result = apply.apply(cluster.client(), create("eu-1", v1));

        assertEquals(Outcome.Created, result.outcome(), result.message());
        Deployment live = liveDeployment();
        assertEquals(OwnershipMarks.MANAGED_BY_VALUE, live.getMetadata().getLabels().get(OwnershipMarks.MANAGED_BY));
        assertEquals("web", live.getMetadata().getLabels().get(OwnershipMarks.APP));
        assertEquals(v1.hash(), live.getMetadata().getAnnotations().get(OwnershipMarks.APPLIED_HASH));
        Map<String, Object> lastApplied = JsonTree.parseObject(live.getMetadata().getAnnotations().get(OwnershipMarks.LAST_APPLIED));
        assertTrue(JsonTree.equal(v1.body(), lastApplied), "last-applied is the Git body: " + lastApplied);
        assertTrue(JsonTree.equal(bodyBefore, v1.body()), "manifest body unchanged");
    }

    @Test void aCreateGoesStraightOutAndOneAlreadyThereChangesNothing() {
        var action = create("eu-1", manifest(V1));
        apply.apply(cluster.client(), action);
        assertEquals(List.of("POST /apis/apps/v1/namespaces/demo/deployments"), cluster.takeRequests(),
                "the plan saw no such object: one request, no look first");

        ActionResult again = apply.apply(cluster.client(), action);

        assertEquals(Outcome.Unchanged, again.outcome(), again.message());
        assertEquals(List.of("POST /apis/apps/v1/namespaces/demo/deployments", "GET /apis/apps/v1/namespaces/demo/deployments/web"),
                cluster.takeRequests(), "the server's 409 leads to a look, and nothing is patched");
    }

    @Test void reapplyingAnUpdateThatIsInPlaceWritesNothing() {
        apply.apply(cluster.client(), create("eu-1", manifest(V1)));
        cluster.takeRequests();

        ActionResult again = apply.apply(cluster.client(), update("eu-1", manifest(V1)));

        assertEquals(Outcome.Unchanged, again.outcome(), again.message());
        assertEquals(List.of("GET /apis/apps/v1/namespaces/demo/deployments/web"), cluster.takeRequests());
    }

    @Test void updateChangesImageRemovesWhatGitRemovedAndKeepsWhatOthersAdded() {
        apply.apply(cluster.client(), create("eu-1", manifest(V1)));
        // Someone else labels the live object; Git never had this label, so it must survive.
        cluster.client().apps().deployments().inNamespace("demo").withName("web")
                .edit(d -> { d.getMetadata().getLabels().put("team", "payments"); return d; });
        cluster.takeRequests();

        ActionResult result = apply.apply(cluster.client(), update("eu-1", manifest(V2)));

        assertEquals(Outcome.Configured, result.outcome(), result.message());
        assertTrue(result.message().contains("spec.template.spec.containers"), result.message());
        assertTrue(result.message().contains("spec.minReadySeconds (removed)"), result.message());
        assertTrue(cluster.takeRequests().stream().anyMatch(r -> r.startsWith("PATCH ")));
        Deployment live = liveDeployment();
        var containers = live.getSpec().getTemplate().getSpec().getContainers();
        assertEquals(1, containers.size());
        assertEquals("nginx:1.27", containers.get(0).getImage());
        assertNull(live.getSpec().getMinReadySeconds(), "removed from Git, so removed live");
        assertFalse(live.getMetadata().getLabels().containsKey("tier"), "removed from Git, so removed live");
        assertEquals("payments", live.getMetadata().getLabels().get("team"), "added by someone else, so kept");
        assertEquals(OwnershipMarks.MANAGED_BY_VALUE, live.getMetadata().getLabels().get(OwnershipMarks.MANAGED_BY));
    }

    @Test void updateOfAMissingObjectCreatesIt() {
        ActionResult result = apply.apply(cluster.client(), update("eu-1", manifest(V2)));

        assertEquals(Outcome.Created, result.outcome());
        assertEquals("nginx:1.27", liveDeployment().getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }

    @Test void driftOnAFieldGitSetsIsCorrected() {
        apply.apply(cluster.client(), create("eu-1", manifest(V1)));
        cluster.client().apps().deployments().inNamespace("demo").withName("web")
                .edit(d -> { d.getSpec().setReplicas(7); return d; });

        ActionResult result = apply.apply(cluster.client(), update("eu-1", manifest(V1)));

        assertEquals(Outcome.Configured, result.outcome());
        assertEquals("patched spec.replicas", result.message());
        assertEquals(2, liveDeployment().getSpec().getReplicas());
    }

    private Deployment liveDeployment() {
        return cluster.client().apps().deployments().inNamespace("demo").withName("web").get();
    }

    /**
     * A ConfigMap of 140 KB fits the API server's 256 KiB limit on annotations by itself, but not with the copy
     * client-side apply keeps in one: said before anything is sent, naming the object and what to do instead.
     */
    @Test void anObjectTooBigForItsLastAppliedCopyIsRefusedBeforeAnythingIsSent() {
        String big = "x".repeat(140_000);
        Manifest m = manifest("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dashboards, namespace: demo, annotations: {note: " + big
                + "}}\ndata: {big: " + big + "}\n");

        ActionResult result = apply.apply(cluster.client(), create("eu-1", m));

        assertEquals(Outcome.Failed, result.outcome());
        assertFalse(result.transientFailure(), "the same object fails the same way: nothing to retry");
        assertTrue(result.message().startsWith("ConfigMap demo/dashboards is too big for client-side apply"), result.message());
        assertTrue(result.message().contains("over the API server's limit of 262144")
                && result.message().contains("spec.syncPolicy.applyStrategy: ServerSide"), result.message());
        assertEquals(List.of(), cluster.takeRequests(), "nothing sent");
    }
}
