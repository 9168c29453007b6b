package dev.windlass.applier.cluster;

import java.time.Duration;

/**
 * How requests to one cluster are made: how long one may take, how often it is retried, how many go at once.
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
 * @param inFlight      writes in flight at once to one cluster while a plan is applied: that many applications are
 *                      applied side by side there, each one's objects one after another (1: one write at a time). The
 *                      bound on what the engine asks of one API server at once; there is no other rate limit
 * @param http2         offer HTTP/2 to API servers over TLS (ALPN): every request to a cluster then shares one
 *                      connection; a server that does not offer it is spoken to in HTTP/1.1, one connection per request
 *                      in flight. Off by default: against a real API server it gained nothing measurable (see
 *                      {@code docs/performance.md}, "Client settings for a fleet")
 */
public record ClientSettings(Duration connectTimeout, Duration requestTimeout, int retryLimit, Duration retryInterval, boolean watch,
                             java.nio.file.Path kubeconfigDir, int inFlight, boolean http2) {

    /** Writes in flight per cluster by default: see {@code docs/performance.md} for how it was chosen. */
    public static final int IN_FLIGHT = 8;

    public static final ClientSettings DEFAULT =
            new ClientSettings(Duration.ofSeconds(5), Duration.ofSeconds(10), 1, Duration.ofMillis(250), true, null, IN_FLIGHT, false);

    /** Reads from watches. */
    public ClientSettings(Duration connectTimeout, Duration requestTimeout, int retryLimit, Duration retryInterval) {
        this(connectTimeout, requestTimeout, retryLimit, retryInterval, true, null, IN_FLIGHT, false);
    }

    /** The same, reading by one LIST each time. */
    public ClientSettings withoutWatches() {
        return new ClientSettings(connectTimeout, requestTimeout, retryLimit, retryInterval, false, kubeconfigDir, inFlight, http2);
    }

    /** The same, reading kubeconfig files only inside {@code dir}. */
    public ClientSettings confinedTo(java.nio.file.Path dir) {
        return new ClientSettings(connectTimeout, requestTimeout, retryLimit, retryInterval, watch, dir, inFlight, http2);
    }

    /** The same, with {@code inFlight} writes at once per cluster and HTTP/2 offered or not. */
    public ClientSettings withConcurrency(int inFlight, boolean http2) {
        return new ClientSettings(connectTimeout, requestTimeout, retryLimit, retryInterval, watch, kubeconfigDir, inFlight, http2);
    }

    public ClientSettings {
        if (connectTimeout.isNegative() || connectTimeout.isZero() || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (retryLimit < 0) throw new IllegalArgumentException("retryLimit must not be negative");
        if (inFlight < 1) throw new IllegalArgumentException("inFlight must be at least 1");
    }
}
