package dev.windlass.applier.cluster;

import java.time.Duration;

/**
 * How long one request to a cluster may take and how often it is retried.
 * The client library's defaults (no request deadline of note, ten retries with back-off) would let one dead
 * cluster hold a pass for minutes; a pass is repeated every interval anyway, so failing fast is the better trade.
 *
 * @param retryLimit    retries of one request after a connection failure or a server error; keep it small
 * @param retryInterval first back-off between those retries (the client doubles it each time)
 * @param watch         whether observations read from watches kept open per query (the engine) or LIST each time
 *                      (one-off commands, where a watch would outlive its use); see {@code reads.WatchCache}
 * @param kubeconfigDir the only directory a Cluster's kubeconfig path may lead into (symbolic links followed first);
 *                      null: anywhere (tests, and library use that vets paths itself). A path in Git names a file on the
 *                      engine's host: without this, a commit could make the engine read any file it can
 */
public record ClientSettings(Duration connectTimeout, Duration requestTimeout, int retryLimit, Duration retryInterval, boolean watch,
                             java.nio.file.Path kubeconfigDir) {

    public static final ClientSettings DEFAULT =
            new ClientSettings(Duration.ofSeconds(5), Duration.ofSeconds(10), 1, Duration.ofMillis(250), true, null);

    /** Reads from watches. */
    public ClientSettings(Duration connectTimeout, Duration requestTimeout, int retryLimit, Duration retryInterval) {
        this(connectTimeout, requestTimeout, retryLimit, retryInterval, true, null);
    }

    /** The same, reading by one LIST each time. */
    public ClientSettings withoutWatches() {
        return new ClientSettings(connectTimeout, requestTimeout, retryLimit, retryInterval, false, kubeconfigDir);
    }

    /** The same, reading kubeconfig files only inside {@code dir}. */
    public ClientSettings confinedTo(java.nio.file.Path dir) {
        return new ClientSettings(connectTimeout, requestTimeout, retryLimit, retryInterval, watch, dir);
    }

    public ClientSettings {
        if (connectTimeout.isNegative() || connectTimeout.isZero() || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (retryLimit < 0) throw new IllegalArgumentException("retryLimit must not be negative");
    }
}
