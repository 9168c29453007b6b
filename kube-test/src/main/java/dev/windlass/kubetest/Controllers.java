package dev.windlass.kubetest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The processes that make an API server a cluster: kube-controller-manager (Deployments make ReplicaSets make Pods,
 * Jobs, StatefulSets, DaemonSets, disruption budgets, garbage collection, node lifecycle) and kube-scheduler (binds
 * Pods to Nodes). The nodes' kubelets are {@link Kubelet}s.
 */
final class Controllers {

    private final List<ChildProcess> processes;

    private Controllers(List<ChildProcess> processes) { this.processes = processes; }

    /** Starts both against the API server that {@code kubeconfig} points at, logging into {@code work}. */
    static Controllers start(Binaries binaries, Path kubeconfig, Path work) {
        List<ChildProcess> started = new ArrayList<>();
        try {
            started.add(ChildProcess.start("kube-controller-manager", List.of(binaries.controllerManager().toString(),
                    "--kubeconfig=" + kubeconfig,
                    "--leader-elect=false", "--secure-port=0", "--use-service-account-credentials=false",
                    // No ServiceAccount token signing here: the test API servers run without ServiceAccount admission.
                    "--controllers=*,-serviceaccount-token",
                    "--node-monitor-grace-period=" + KubeCluster.NODE_MONITOR_GRACE_SECONDS + "s", "--node-monitor-period=1s",
                    "--concurrent-deployment-syncs=10", "--concurrent-replicaset-syncs=10",
                    // Autoscalers act within a second or two, not the default 15 s.
                    "--horizontal-pod-autoscaler-sync-period=1s",
                    "--kube-api-qps=200", "--kube-api-burst=400", "--v=1"),
                    work.resolve("kube-controller-manager.log")));
            started.add(ChildProcess.start("kube-scheduler", List.of(binaries.scheduler().toString(),
                    "--kubeconfig=" + kubeconfig,
                    "--leader-elect=false", "--secure-port=0", "--kube-api-qps=200", "--kube-api-burst=400", "--v=1"),
                    work.resolve("kube-scheduler.log")));
            return new Controllers(started);
        } catch (IOException | RuntimeException e) {
            started.forEach(ChildProcess::stop);
            if (e instanceof IOException io) throw new UncheckedIOException("cannot start the controllers", io);
            throw (RuntimeException) e;
        }
    }

    /** Fails with the end of its log when either has exited. */
    void requireAlive() { processes.forEach(ChildProcess::requireAlive); }

    /** The last lines of both logs, to explain a cluster that did not do what a test expected. */
    String tails(int lines) {
        StringBuilder out = new StringBuilder();
        for (ChildProcess p : processes) out.append("--- ").append(p.name()).append('\n').append(p.tail(lines)).append('\n');
        return out.toString();
    }

    void stop() { processes.forEach(ChildProcess::stop); }
}
