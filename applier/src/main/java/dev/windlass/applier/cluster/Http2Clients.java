package dev.windlass.applier.cluster;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * The client library's own HTTP client (Vert.x), offering HTTP/2 to the API server by ALPN: API servers offer it over
 * TLS, and then all of a cluster's requests share one connection, as many at once as the server allows streams. The
 * library speaks HTTP/1.1 unless told otherwise, one connection per request in flight; a server that does not offer
 * HTTP/2 still gets HTTP/1.1. Used for {@code https} clusters only: without TLS there is no ALPN to agree on it.
 */
final class Http2Clients extends VertxHttpClientFactory {

    /** @param eventLoops shared by the clients it makes, which leave it open when they close */
    Http2Clients(io.vertx.core.Vertx eventLoops) { super(eventLoops); }

    @Override protected void additionalConfig(WebClientOptions options) {
        options.setProtocolVersion(HttpVersion.HTTP_2).setUseAlpn(true);
    }
}
