package dev.windlass.applier.observe;

import static dev.windlass.applier.support.Fixtures.yaml;
import static dev.windlass.policy.state.Health.Degraded;
import static dev.windlass.policy.state.Health.Healthy;
import static dev.windlass.policy.state.Health.Progressing;
import static dev.windlass.policy.state.Health.Suspended;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.state.Health;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Health from object bodies as API servers report them; no cluster involved. */
class HealthAssessorTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("objects")
    void assesses(String name, String body, Health health, String message) {
        Assessment a = HealthAssessor.assess(yaml(body));

        assertEquals(health, a.health(), a.message());
        assertTrue(a.message().contains(message), () -> "message '" + a.message() + "' should contain '" + message + "'");
    }

    static Stream<Arguments> objects() {
        return Stream.of(
                // Deployments
                of("deployment rolled out", deployment(3, "{observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3}", ""), Healthy, ""),
                of("deployment paused", deployment(3, "{observedGeneration: 2}", "paused: true"), Suspended, "paused"),
                of("deployment spec not yet observed", deployment(3, "{observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3}", ""),
                        Progressing, "observed deployment generation less than desired generation"),
                of("deployment updating", deployment(3, "{observedGeneration: 2, replicas: 3, updatedReplicas: 1, availableReplicas: 3}", ""),
                        Progressing, "1 out of 3 new replicas have been updated"),
                of("deployment old replicas terminating", deployment(3, "{observedGeneration: 2, replicas: 4, updatedReplicas: 3, availableReplicas: 3}", ""),
                        Progressing, "1 old replicas are pending termination"),
                of("deployment new replica not available", deployment(1, "{observedGeneration: 2, replicas: 1, updatedReplicas: 1}", ""),
                        Progressing, "Waiting for rollout to finish: 0 of 1 updated replicas are available..."),
                of("deployment past its progress deadline", deployment(1, """
                        observedGeneration: 2
                        replicas: 1
                        updatedReplicas: 1
                        conditions:
                        - {type: Available, status: "False", reason: MinimumReplicasUnavailable}
                        - {type: Progressing, status: "False", reason: ProgressDeadlineExceeded, message: 'ReplicaSet "web-5d" has timed out progressing.'}
                        """, ""), Degraded, "exceeded its progress deadline"),
                // StatefulSets
                of("statefulset ready", statefulSet("{observedGeneration: 1, replicas: 3, readyReplicas: 3, updatedReplicas: 3, currentRevision: db-7c, updateRevision: db-7c}", ""), Healthy, ""),
                of("statefulset pods not ready", statefulSet("{observedGeneration: 1, replicas: 3, readyReplicas: 1}", ""), Progressing, "Waiting for 2 pods to be ready"),
                of("statefulset rolling update", statefulSet("{observedGeneration: 1, replicas: 3, readyReplicas: 3, updatedReplicas: 1, currentRevision: db-7c, updateRevision: db-9f}", ""),
                        Progressing, "rolling update to complete 1 pods at revision db-9f"),
                of("statefulset partition reached", statefulSet("{observedGeneration: 1, replicas: 3, readyReplicas: 3, updatedReplicas: 1, currentRevision: db-7c, updateRevision: db-9f}",
                        "updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}"), Healthy, "partitioned roll out complete"),
                of("statefulset spec not yet observed", statefulSet("{observedGeneration: 0, replicas: 3, readyReplicas: 3}", ""), Progressing, "spec update to be observed"),
                // DaemonSets
                of("daemonset rolled out", daemonSet("{observedGeneration: 4, desiredNumberScheduled: 5, updatedNumberScheduled: 5, numberAvailable: 5}", "RollingUpdate"), Healthy, ""),
                of("daemonset updating", daemonSet("{observedGeneration: 4, desiredNumberScheduled: 5, updatedNumberScheduled: 2, numberAvailable: 5}", "RollingUpdate"),
                        Progressing, "2 out of 5 new pods have been updated"),
                of("daemonset pods unavailable", daemonSet("{observedGeneration: 4, desiredNumberScheduled: 5, updatedNumberScheduled: 5, numberAvailable: 3}", "RollingUpdate"),
                        Progressing, "3 of 5 updated pods are available"),
                of("daemonset on delete", daemonSet("{observedGeneration: 4, desiredNumberScheduled: 5, updatedNumberScheduled: 1, numberAvailable: 5}", "OnDelete"), Healthy, ""),
                // Jobs
                of("job complete", job("", "conditions: [{type: Complete, status: 'True', reason: Completed}]\nsucceeded: 1"), Healthy, ""),
                of("job failed", job("", "conditions: [{type: Failed, status: 'True', reason: BackoffLimitExceeded, message: Job has reached the specified backoff limit}]"),
                        Degraded, "Job has reached the specified backoff limit"),
                of("job suspended", job("suspend: true", "conditions: [{type: Suspended, status: 'True'}]"), Suspended, "suspended"),
                of("job running", job("", "active: 1"), Progressing, "1 active"),
                // Pods
                of("pod running and ready", pod("Running", "[{name: web, ready: true, state: {running: {}}}]", "Always"), Healthy, ""),
                of("pod crash looping", pod("Running", "[{name: web, ready: false, state: {waiting: {reason: CrashLoopBackOff, message: back-off 5m0s restarting failed container}}}]", "Always"),
                        Degraded, "container web: CrashLoopBackOff"),
                of("pod image pull failing", pod("Pending", "[{name: web, ready: false, state: {waiting: {reason: ImagePullBackOff}}}]", "Always"), Degraded, "ImagePullBackOff"),
                of("pod starting", pod("Pending", "[{name: web, ready: false, state: {waiting: {reason: ContainerCreating}}}]", "Always"), Progressing, ""),
                of("pod running not ready", pod("Running", "[{name: web, ready: false, state: {running: {}}}]", "Always"), Progressing, "ready"),
                of("pod succeeded", pod("Succeeded", "[{name: task, ready: false, state: {terminated: {exitCode: 0}}}]", "Never"), Healthy, ""),
                of("pod failed", pod("Failed", "[{name: task, ready: false, state: {terminated: {exitCode: 1}}}]", "Never"), Degraded, "failed"),
                // Claims and services
                of("claim bound", "{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data}, status: {phase: Bound}}", Healthy, ""),
                of("claim pending", "{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data}, status: {phase: Pending}}", Progressing, "bound"),
                of("claim lost", "{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data}, status: {phase: Lost}}", Degraded, "lost"),
                of("cluster IP service", "{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {type: ClusterIP, ports: [{port: 80}]}}", Healthy, ""),
                of("load balancer without address", "{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {type: LoadBalancer}, status: {loadBalancer: {}}}", Progressing, "load balancer"),
                of("load balancer with address", "{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {type: LoadBalancer}, status: {loadBalancer: {ingress: [{ip: 203.0.113.7}]}}}", Healthy, ""),
                // Everything else, by conventions
                of("config map", "{apiVersion: v1, kind: ConfigMap, metadata: {name: settings}, data: {a: b}}", Healthy, ""),
                of("custom resource ready", custom("[{type: Ready, status: 'True', reason: Succeeded}]", 3, 3), Healthy, ""),
                of("custom resource not ready", custom("[{type: Ready, status: 'False', reason: InstallFailed, message: 'chart values invalid'}]", 3, 3), Degraded, "chart values invalid"),
                of("custom resource still working", custom("[{type: Ready, status: 'False', reason: Progressing, message: 'waiting for pods'}]", 3, 3), Progressing, "waiting for pods"),
                of("custom resource stalled", custom("[{type: Stalled, status: 'True', message: 'quota exceeded'}, {type: Ready, status: 'False', reason: Progressing}]", 3, 3), Degraded, "quota exceeded"),
                of("custom resource reconciling", custom("[{type: Reconciling, status: 'True', reason: Progressing, message: 'upgrading'}]", 3, 3), Progressing, "upgrading"),
                of("custom resource readiness unknown", custom("[{type: Ready, status: Unknown}]", 3, 3), Progressing, ""),
                of("custom resource status stale", custom("[{type: Ready, status: 'True'}]", 2, 3), Progressing, "generation 2"),
                of("object being deleted", "{apiVersion: v1, kind: ConfigMap, metadata: {name: x, deletionTimestamp: '2025-01-01T00:00:00Z'}}", Progressing, "deletion"));
    }

    private static Arguments of(String name, String body, Health health, String message) {
        return Arguments.of(name, body, health, message);
    }

    private static String deployment(int replicas, String status, String extraSpec) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: demo, generation: 2}
                spec:
                  replicas: %d
                  %s
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: nginx:1.27}]}
                status:
                %s
                """.formatted(replicas, extraSpec, indent(status));
    }

    private static String statefulSet(String status, String extraSpec) {
        return """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: demo, generation: 1}
                spec:
                  replicas: 3
                  serviceName: db
                  %s
                status: %s
                """.formatted(extraSpec, status);
    }

    private static String daemonSet(String status, String strategy) {
        return """
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent, namespace: kube-system, generation: 4}
                spec: {updateStrategy: {type: %s}}
                status: %s
                """.formatted(strategy, status);
    }

    private static String job(String extraSpec, String status) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: migrate, namespace: demo}
                spec:
                  backoffLimit: 2
                  %s
                status:
                %s
                """.formatted(extraSpec, indent(status));
    }

    private static String pod(String phase, String containerStatuses, String restartPolicy) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: web-5d-x2x, namespace: demo}
                spec: {restartPolicy: %s, containers: [{name: web, image: nginx:1.27}]}
                status:
                  phase: %s
                  containerStatuses: %s
                """.formatted(restartPolicy, phase, containerStatuses);
    }

    private static String custom(String conditions, int observedGeneration, int generation) {
        return """
                apiVersion: addons.example.com/v1
                kind: Addon
                metadata: {name: ingress, namespace: infra, generation: %d}
                spec: {package: ingress}
                status:
                  observedGeneration: %d
                  conditions: %s
                """.formatted(generation, observedGeneration, conditions);
    }

    private static String indent(String block) {
        return block.strip().lines().map(l -> "  " + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
