package dev.windlass.applier.cluster;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * The client library's own HTTP client (Vert.x) on the fleet's shared event loops, as every cluster's client is made.
 *
 * <p>With {@code http2}, it offers HTTP/2 to the API server by ALPN: API servers offer it over TLS, and then all of a
 * cluster's requests share one connection, as many at once as the server allows streams. The library speaks HTTP/1.1
 * unless told otherwise, one connection per request in flight; a server that does not offer HTTP/2 still gets
 * HTTP/1.1. Used for {@code https} clusters only: without TLS there is no ALPN to agree on it.
 *
 * <p>Either way, each client looks for connections idle past their keep-alive every {@link #POOL_CLEANER_MILLIS}, not
 * every second: a timer per client that woke an idle engine's event loops sixty times a minute for each cluster.
 *
 * <p>Over TLS it offers ChaCha20-Poly1305 first ({@link CipherPreference}).
 */
final class EventLoopClients extends VertxHttpClientFactory {

    /** How often a client closes the connections that were idle past their keep-alive (60 s). */
    static final int POOL_CLEANER_MILLIS = 15_000;

    private final boolean http2;

    /** @param eventLoops shared by the clients it makes, which leave it open when they close */
    EventLoopClients(io.vertx.core.Vertx eventLoops, boolean http2) {
        super(eventLoops);
        this.http2 = http2;
    }

    @Override protected void additionalConfig(WebClientOptions options) {
        options.setPoolCleanerPeriod(POOL_CLEANER_MILLIS);
        if (options.isSsl() && options.getSslEngineOptions() instanceof io.vertx.core.net.JdkSSLEngineOptions library) {
            options.setSslEngineOptions(CipherPreference.around(library));
        }
        if (http2) options.setProtocolVersion(HttpVersion.HTTP_2).setUseAlpn(true);
    }
}
