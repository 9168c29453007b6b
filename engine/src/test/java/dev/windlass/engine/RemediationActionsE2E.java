package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.engine.reconcile.ClusterFleet;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.Reconciler;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.RetryPolicy;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.sandbox.sim.WorkloadMatch;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remediation actions that do something: Restart retried up to maxRetry and then given up (no loops), a fresh
 * sequence after minHealthyPeriodSeconds, Delete only once the owner's replacement has joined, and a restart
 * of the engine between recording an attempt and making it.
 */
class RemediationActionsE2E {
    static final WorkloadMatch DB = WorkloadMatch.named("data", "Deployment", "db");

    @TempDir Path dir;

    static String policy(String target, String checks, String remediation) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: RemediationPolicy
                metadata: {name: workloads}
                spec:
                  clusterSelector: {matchLabels: {env: prod}}
                  target: %s
                  checks:
                    unhealthyConditions: [%s]
                  remediation:
                %s
                """.formatted(target, checks, remediation.indent(4).stripTrailing());
    }

    static final String RESTART = policy("{apiVersion: apps/v1, kind: Deployment, selector: {matchLabels: {tier: db}}}",
            "{type: Progressing, status: \"False\", timeoutSeconds: 30}",
            "action: Restart\nmaxRetry: 2\nretryPeriodSeconds: 60\nminHealthyPeriodSeconds: 300");

    TestFleet start(String policy) throws Exception {
        TestFleet fleet = new TestFleet(dir);
        fleet.push("a cluster and a remediation policy", c -> c
                .write("clusters/c.yaml", RemediationContract.cluster(fleet, "c", 1, false))
                .write("policies/remediation.yaml", policy));
        fleet.settle();
        try (KubernetesClient k = fleet.cluster("c").newClient()) {
            k.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("data").endMetadata().build()).create();
        }
        return fleet;
    }

    /** A database Deployment nobody manages through Git: remediation watches whatever is there. */
    static void database(TestFleet fleet) {
        try (KubernetesClient k = fleet.cluster("c").newClient()) {
            k.apps().deployments().inNamespace("data").resource(new DeploymentBuilder()
                    .withNewMetadata().withName("db").withLabels(Map.of("tier", "db")).endMetadata()
                    .withNewSpec().withReplicas(1).withNewSelector().withMatchLabels(Map.of("app", "db")).endSelector()
                    .withNewTemplate().withNewMetadata().withLabels(Map.of("app", "db")).endMetadata()
                    .withNewSpec().addNewContainer().withName("db").withImage("postgres:17").endContainer().endSpec()
                    .endTemplate().endSpec().build()).create();
        }
    }

    static RemediationRecord record(Engine engine, String target) throws Exception {
        return engine.reconciler().state().clusters().get("c").remediationRecords().stream()
                .filter(r -> r.target().equals(target)).findFirst().orElse(null);
    }

    static long commits(TestFleet fleet, String text) throws Exception {
        return fleet.statusLog().stream().filter(c -> c.getFullMessage().contains(text)).count();
    }

    static void passesFor(TestFleet fleet, int seconds) throws Exception {
        for (int t = 0; t < seconds; t += 10) RemediationContract.after(fleet, 10);
    }

    @Test
    void restartIsRetriedUpToMaxRetryThenGivenUpAndAFreshSequenceNeedsMinHealthyPeriod() throws Exception {
        try (TestFleet fleet = start(RESTART)) {
            database(fleet);
            passesFor(fleet, 20);
            assertEquals(RemediationRecord.State.Healthy, record(fleet.engine, "Deployment data/db").state());
            fleet.sandbox.simulator().workloadNeverReady(DB.onCluster("c"), true);
            passesFor(fleet, 400);
            RemediationRecord r = record(fleet.engine, "Deployment data/db");
            assertEquals(RemediationRecord.State.GaveUp, r.state(), r.toString());
            assertEquals(2, r.attempts());
            assertEquals(1, commits(fleet, "Restart attempt 1 of 2"));
            assertEquals(1, commits(fleet, "Restart attempt 2 of 2"));
            assertEquals(0, commits(fleet, "attempt 3"));
            assertTrue(r.message().startsWith("given up after 2 attempts (maxRetry 2), still unhealthy"), r.message());
            assertEquals(1, commits(fleet, "given up"), "given up once, not every pass");

            fleet.sandbox.simulator().workloadNeverReady(DB.onCluster("c"), false);
            passesFor(fleet, 60);
            assertEquals(RemediationRecord.State.Healthy, record(fleet.engine, "Deployment data/db").state());
            assertEquals(2, record(fleet.engine, "Deployment data/db").attempts(), "healthy for less than minHealthyPeriod: attempts kept");
            fleet.sandbox.simulator().workloadNeverReady(DB.onCluster("c"), true);
            passesFor(fleet, 200);
            assertEquals(RemediationRecord.State.GaveUp, record(fleet.engine, "Deployment data/db").state(), "failing again soon after: no new sequence, no loop");
            assertEquals(0, commits(fleet, "attempt 3"));

            fleet.sandbox.simulator().workloadNeverReady(DB.onCluster("c"), false);
            passesFor(fleet, 330);
            assertEquals(0, record(fleet.engine, "Deployment data/db").attempts(), "healthy for minHealthyPeriod: a fresh sequence");
            fleet.sandbox.simulator().workloadNeverReady(DB.onCluster("c"), true);
            passesFor(fleet, 100);
            assertEquals(2, commits(fleet, "Restart attempt 1 of 2"), "the new sequence starts at attempt 1");
        }
    }

    /** CordonAndDrain on the cluster's nodes; "c-worker-1" is the one that fails. */
    static String drain(String retries) {
        return policy("{apiVersion: v1, kind: Node}", "{type: Ready, status: \"False\", timeoutSeconds: 30}",
                "action: CordonAndDrain\n" + retries + "\nretryPeriodSeconds: 60\nminHealthyPeriodSeconds: 600");
    }

    static io.fabric8.kubernetes.api.model.Node node(TestFleet fleet, String name) {
        try (KubernetesClient k = fleet.cluster("c").newClient()) {
            return k.nodes().withName(name).get();
        }
    }

    static boolean cordoned(TestFleet fleet, String name) { return Boolean.TRUE.equals(node(fleet, name).getSpec().getUnschedulable()); }

    static String mark(TestFleet fleet, String name) {
        var annotations = node(fleet, name).getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get("windlass.dev/unhealthy");
    }

    static void nodeReady(TestFleet fleet, String name, boolean ready) { fleet.backend.nodeReady("c", name, ready); }

    @Test
    void afterGivingUpAFlappingNodeIsNotMarkedAgainUntilHealthyForMinHealthyPeriod() throws Exception {
        try (TestFleet fleet = start(drain("maxRetry: 1"))) {
            passesFor(fleet, 20);
            nodeReady(fleet, "c-worker-1", false);
            passesFor(fleet, 130);
            RemediationRecord r = record(fleet.engine, "Node c-worker-1");
            assertEquals(RemediationRecord.State.GaveUp, r.state(), r.toString());
            assertEquals(1, r.attempts());
            assertEquals(1, commits(fleet, "c-worker-1 marked unhealthy"));
            for (int i = 0; i < 3; i++) {
                nodeReady(fleet, "c-worker-1", true);
                passesFor(fleet, 30);
                nodeReady(fleet, "c-worker-1", false);
                passesFor(fleet, 60);
                assertEquals(RemediationRecord.State.GaveUp, record(fleet.engine, "Node c-worker-1").state(), "flap " + i);
            }
            assertEquals(1, commits(fleet, "c-worker-1 marked unhealthy"), "never marked again after giving up");
            assertEquals(0, commits(fleet, "attempt 2"));
            assertTrue(cordoned(fleet, "c-worker-1"), "left as it was given up: cordoned, for someone to look at");
        }
    }

    @Test
    void cordonAndDrainUncordonsWhatItCordonedOnceTheNodeHasBeenHealthyForMinHealthyPeriod() throws Exception {
        try (TestFleet fleet = start(drain("maxRetry: 2"))) {
            passesFor(fleet, 20);
            nodeReady(fleet, "c-worker-1", false);
            passesFor(fleet, 60);
            assertEquals(RemediationRecord.State.Remediating, record(fleet.engine, "Node c-worker-1").state());
            assertTrue(cordoned(fleet, "c-worker-1"));
            assertNotNull(record(fleet.engine, "Node c-worker-1").cordonedAt(), "Windlass records that it cordoned the node");

            nodeReady(fleet, "c-worker-1", true);
            passesFor(fleet, 300);
            assertEquals(RemediationRecord.State.Healthy, record(fleet.engine, "Node c-worker-1").state());
            assertTrue(cordoned(fleet, "c-worker-1"), "healthy for less than minHealthyPeriodSeconds: still cordoned");
            assertNotNull(mark(fleet, "c-worker-1"), "and still marked: its remediation is not over");
            passesFor(fleet, 330);
            assertTrue(!cordoned(fleet, "c-worker-1"), "healthy for minHealthyPeriodSeconds: uncordoned");
            assertNull(mark(fleet, "c-worker-1"), "and unmarked");
            assertNull(record(fleet.engine, "Node c-worker-1").cordonedAt());
            assertEquals(0, record(fleet.engine, "Node c-worker-1").attempts());
            assertEquals(1, commits(fleet, "c-worker-1 uncordoned"));

            // A node someone else cordoned stays cordoned: Windlass only undoes what it did.
            try (KubernetesClient k = fleet.cluster("c").newClient()) {
                k.nodes().withName("c-cp-1").edit(n -> {
                    n.getSpec().setUnschedulable(true);
                    return n;
                });
            }
            nodeReady(fleet, "c-cp-1", false);
            passesFor(fleet, 60);
            assertEquals(RemediationRecord.State.Remediating, record(fleet.engine, "Node c-cp-1").state());
            assertNull(record(fleet.engine, "Node c-cp-1").cordonedAt(), "it was cordoned already");
            nodeReady(fleet, "c-cp-1", true);
            passesFor(fleet, 30);
            assertNull(mark(fleet, "c-cp-1"), "nothing of Windlass's to undo but the mark: it comes off when healthy");
            passesFor(fleet, 600);
            assertTrue(cordoned(fleet, "c-cp-1"), "still cordoned, as its owner left it");
        }
    }

    @Test
    void deleteWaitsForTheOwnersReplacementAndIsRefusedWithoutAnOwner() throws Exception {
        String policy = policy("{apiVersion: v1, kind: Pod, selector: {matchLabels: {role: member}}}",
                "{type: Ready, status: \"False\", timeoutSeconds: 30}", "action: Delete\nmaxInFlight: 2");
        try (TestFleet fleet = start(policy)) {
            for (String m : new String[] {"member-a", "member-b", "member-c"}) member(fleet, m, true);
            member(fleet, "lonely", false);
            passesFor(fleet, 20);
            fleet.sandbox.simulator().workloadNeverReady(WorkloadMatch.named("data", "Pod", "member-b").onCluster("c"), true);
            fleet.sandbox.simulator().workloadNeverReady(WorkloadMatch.named("data", "Pod", "lonely").onCluster("c"), true);
            passesFor(fleet, 80);
            RemediationRecord b = record(fleet.engine, "Pod data/member-b");
            assertNotNull(b, fleet.engine.reconciler().state().clusters().get("c").toString());
            assertEquals(RemediationRecord.State.Marked, b.state(), b.toString());
            assertTrue(b.message().startsWith("waiting for EtcdCluster/main to add a healthy replacement before Pod data/member-b is deleted"),
                    b.message());
            assertTrue(exists(fleet, "member-b"), "no replacement yet: not deleted");

            member(fleet, "member-d", true);  // the owner scales up
            passesFor(fleet, 30);
            assertTrue(!exists(fleet, "member-b"), "deleted once the replacement joined");
            assertTrue(commits(fleet, "Delete attempt 1") >= 1);
            passesFor(fleet, 30);
            assertNull(record(fleet.engine, "Pod data/member-b"), "deleted by remediation: forgotten, the replacement took its place");

            RemediationRecord lonely = record(fleet.engine, "Pod data/lonely");
            assertNotNull(lonely);
            assertTrue(exists(fleet, "lonely"));
            assertTrue(lonely.message().startsWith("Delete refused: Pod data/lonely has no owner that would replace it"), lonely.message());
        }
    }

    static void member(TestFleet fleet, String name, boolean owned) {
        try (KubernetesClient k = fleet.cluster("c").newClient()) {
            var meta = new PodBuilder().withNewMetadata().withName(name).withLabels(Map.of("role", "member"));
            if (owned) meta = meta.addNewOwnerReference().withApiVersion("example.com/v1").withKind("EtcdCluster").withName("main")
                    .withUid("6f1c").withController(true).endOwnerReference();
            k.pods().inNamespace("data").resource(meta.endMetadata().withNewSpec().addNewContainer().withName("etcd")
                    .withImage("etcd:3.6").endContainer().endSpec().build()).create();
        }
    }

    static boolean exists(TestFleet fleet, String pod) {
        try (KubernetesClient k = fleet.cluster("c").newClient()) {
            return k.pods().inNamespace("data").withName(pod).get() != null;
        }
    }

    @Test
    void anEngineKilledAfterRecordingAnAttemptDoesNotMakeItTwice() throws Exception {
        try (TestFleet fleet = start(RESTART)) {
            database(fleet);
            passesFor(fleet, 20);
            fleet.sandbox.simulator().workloadNeverReady(DB.onCluster("c"), true);
            for (int i = 0; i < 20 && !RemediationRecord.State.Marked.equals(record(fleet.engine, "Deployment data/db").state()); i++) RemediationContract.after(fleet, 10);
            assertEquals(RemediationRecord.State.Marked, record(fleet.engine, "Deployment data/db").state());
            fleet.clock.advance(Duration.ofSeconds(10));
            ClusterClients clients = new ClusterClients();
            try (Mirror mirror = Mirror.open(dir.resolve("dying"), GitRemote.anonymous(fleet.origin.toString()))) {
                Reconciler dying = new Reconciler(mirror, "main", new StatusWriter(mirror, "windlass/status", RetryPolicy.DEFAULT),
                        new FailoverRestartE2E.Dies(new ClusterFleet(clients, new Applier(clients), dev.windlass.engine.reconcile.SandboxSupply.of(fleet.sandbox)), false), fleet.clock);
                assertThrows(IllegalStateException.class, dying::reconcile);
            } finally {
                clients.close();
            }
            assertEquals(1, commits(fleet, "Restart attempt 1 of 2"), "recorded before the kill");
            fleet.resetRequestCounts();
            try (Engine engine = new Engine(Mirror.open(dir.resolve("after-kill"), GitRemote.anonymous(fleet.origin.toString())), "main",
                    "windlass/status", fleet.sandbox, fleet.clock)) {
                for (int i = 0; i < 4; i++) {
                    fleet.clock.advance(Duration.ofSeconds(10));
                    engine.reconciler().reconcile();
                }
                assertEquals(1, commits(fleet, "Restart attempt 1 of 2"), "the recorded attempt is not made again");
                assertEquals(0, commits(fleet, "attempt 2"), "the next one waits for retryPeriodSeconds from the recorded attempt");
                assertEquals(0, fleet.cluster("c").requests().count("PATCH", "/apis/apps/v1/namespaces/data/deployments/db"),
                        "no restart sent after the kill within the retry period");
                assertEquals(1, record(engine, "Deployment data/db").attempts());
            }
        }
    }
}
