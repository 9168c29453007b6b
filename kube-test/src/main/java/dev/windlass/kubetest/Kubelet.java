package dev.windlass.kubetest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The kubelet of one fake node: a kwok process that manages that node only. It keeps the node's heartbeat (status and
 * Lease) and moves the Pods bound to it to Running and Ready (and Jobs' Pods to Succeeded). Volumes of kwok's storage
 * class are provisioned by one more kwok process, {@link #volumeProvisioner}. Stopping it is a kubelet that died: the node's Lease is no longer renewed, and the
 * node-lifecycle controller marks the node {@code Ready=Unknown} once its grace period has passed.
 */
final class Kubelet {

    /** kwok renews the node's Lease every quarter of this, well inside the node-lifecycle controller's grace period. */
    static final Duration NODE_LEASE = Duration.ofSeconds(8);

    /** What it stands for, in messages: {@code kubelet of node-0}, {@code volume provisioner}. */
    private final String what;
    private final List<String> command;
    private final Path log;
    private ChildProcess process;

    private Kubelet(String what, List<String> command, Path log) {
        this.what = what;
        this.command = command;
        this.log = log;
    }

    /** The kubelet of {@code node}, playing the node and Pod stages in {@code stages}. */
    static Kubelet of(Binaries binaries, Path kubeconfig, Path work, Path stages, String node) {
        return new Kubelet("kubelet of " + node, List.of(binaries.kwok().toString(),
                "--kubeconfig=" + kubeconfig, "--config=" + stages,
                "--manage-all-nodes=false", "--manage-single-node=" + node,
                "--node-lease-duration-seconds=" + NODE_LEASE.toSeconds(),
                "--cidr=10.244.0.1/16", "--node-ip=10.0.0.1"),
                work.resolve("kwok-" + node + ".log"));
    }

    /**
     * The one volume provisioner of the cluster: a kwok process that manages no node (its node selector matches none)
     * and plays only the volume stages in {@code stages}, so each claim is provisioned and bound by one writer.
     */
    static Kubelet volumeProvisioner(Binaries binaries, Path kubeconfig, Path work, Path stages) {
        return new Kubelet("volume provisioner", List.of(binaries.kwok().toString(),
                "--kubeconfig=" + kubeconfig, "--config=" + stages,
                "--manage-all-nodes=false", "--manage-nodes-with-label-selector=windlass.dev/kwok-manages-no-node=true"),
                work.resolve("kwok-volume-provisioner.log"));
    }

    synchronized void start() {
        if (process != null && process.alive()) return;
        try {
            process = ChildProcess.start("kwok (" + what + ")", command, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start kwok (" + what + ")", e);
        }
    }

    synchronized void stop() {
        if (process != null) process.stop();
        process = null;
    }

    synchronized boolean running() { return process != null && process.alive(); }

    /** Fails with the end of its log when it exited by itself (a stopped kubelet is not expected to run). */
    synchronized void requireAlive() {
        if (process != null) process.requireAlive();
    }

    synchronized String tail(int lines) { return process == null ? "(stopped)" : process.tail(lines); }
}
