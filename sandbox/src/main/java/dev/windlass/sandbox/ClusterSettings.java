package dev.windlass.sandbox;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;

import java.time.Duration;
import java.util.Objects;

/**
 * How clients reach a sandbox cluster: the timeouts written into {@link SandboxCluster#config()}. The default
 * connect timeout is short because the clusters are on loopback; the request timeout leaves room for injected latency.
 */
public record ClusterSettings(Duration connectTimeout, Duration requestTimeout) {

    public ClusterSettings {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (!isPositive(connectTimeout) || !isPositive(requestTimeout)) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
    }

    public static ClusterSettings defaults() {
        return new ClusterSettings(Duration.ofSeconds(2), Duration.ofSeconds(10));
    }

    public ClusterSettings withRequestTimeout(Duration timeout) {
        return new ClusterSettings(connectTimeout, timeout);
    }

    public ClusterSettings withConnectTimeout(Duration timeout) {
        return new ClusterSettings(timeout, requestTimeout);
    }

    /**
     * Client settings for a sandbox cluster at {@code masterUrl}: no TLS, namespace "default", these timeouts, and no
     * client-side retries, so an unreachable cluster fails within one request timeout instead of after fabric8's
     * default ten backed-off retries. Start from {@code new ConfigBuilder(config)} to change any of it.
     */
    public Config config(String masterUrl) {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(masterUrl)
                .withNamespace("default")
                .withConnectionTimeout(millis(connectTimeout))
                .withRequestTimeout(millis(requestTimeout))
                .withRequestRetryBackoffLimit(0)
                // As fabric8's own mock client does: no h2c upgrade attempts against a plain-HTTP test server.
                .withHttp2Disable(true)
                .build();
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    private static boolean isPositive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }
}
