package dev.windlass.engine.reconcile;

import dev.windlass.sandbox.Sandbox;
import io.fabric8.kubernetes.client.Config;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where sandbox clusters come from. The running engine starts the embedded sandbox (its API servers and simulator)
 * only when the config repo first lists a Cluster with {@code connection.sandbox}: an engine whose clusters all have
 * a kubeconfig never loads it. Tests and the demo hand in a sandbox they own.
 */
public final class SandboxSupply implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SandboxSupply.class);

    private final Supplier<Sandbox> start;
    private final boolean owned;
    private Sandbox sandbox;  // guarded by this

    private SandboxSupply(Supplier<Sandbox> start, boolean owned) {
        this.start = start;
        this.owned = owned;
    }

    /** A sandbox someone else started and closes. */
    public static SandboxSupply of(Sandbox sandbox) {
        SandboxSupply supply = new SandboxSupply(() -> sandbox, false);
        supply.sandbox = sandbox;
        return supply;
    }

    /** Starts a sandbox, its simulator ticking every 500 ms on {@code clock}, the first time one is asked for; closes it. */
    public static SandboxSupply onDemand(Clock clock) {
        // A class, not a lambda: linking a lambda would load the sandbox's classes before any is needed.
        return new SandboxSupply(new Supplier<>() {
            @Override public Sandbox get() {
                log.info("starting the embedded sandbox: the config repo lists a sandbox Cluster");
                Sandbox s = new Sandbox();
                s.simulator().start(Duration.ofMillis(500), clock);
                return s;
            }
        }, true);
    }

    /** For commands that never connect a sandbox cluster (they plan them from the status branch's record). */
    public static SandboxSupply none() {
        return new SandboxSupply(() -> {
            throw new IllegalStateException("this command does not run sandbox clusters");
        }, false);
    }

    /** The sandbox, started now if it was not yet. */
    public synchronized Sandbox get() {
        if (sandbox == null) sandbox = start.get();
        return sandbox;
    }

    /** Whether a sandbox has been started (or handed in). */
    public synchronized boolean started() { return sandbox != null; }

    /** The client settings of sandbox cluster {@code name}, started with these nodes if it is not running yet. */
    synchronized Config cluster(String name, int nodes, int controlPlaneNodes) {
        Sandbox s = get();
        boolean running = s.clusters().stream().anyMatch(c -> c.name().equals(name));
        if (!running) s.add(name, nodes, controlPlaneNodes);
        return s.cluster(name).config();
    }

    /** Closes the sandbox if this supply started it. */
    @Override public synchronized void close() {
        if (owned && sandbox != null) sandbox.close();
    }
}
