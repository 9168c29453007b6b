package dev.windlass.applier.cluster;

import io.netty.handler.ssl.DelegatingSslContext;
import io.netty.handler.ssl.SslContext;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.spi.tls.SslContextFactory;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLEngine;

/**
 * The order in which a cluster client offers TLS cipher suites to its API server: ChaCha20-Poly1305 first, then the
 * AES-GCM suites the client library offers by default, so a server that does not take ChaCha20 is reached as before.
 *
 * <p>Why: the engine's JVM compiles with its JIT's first tier only ({@code -XX:TieredStopAtLevel=1}, for memory), and
 * only the second tier uses the processor's AES instructions. In the first tier, AES-GCM ran at about 31 MB/s a core
 * here and ChaCha20-Poly1305 at about 130 MB/s; every byte from an API server (LISTs, watch events, the answers to
 * writes) is decrypted so. A Kubernetes API server (Go's TLS) picks ChaCha20-Poly1305 when the client lists it first,
 * as Go's own clients on processors without AES instructions do. Both are TLS 1.3's standard AEAD ciphers.
 *
 * <p>The client library passes its own list to every TLS engine it makes, so the order is set on each engine, after
 * the library's list and before the handshake.
 */
final class CipherPreference extends DelegatingSslContext {

    /** Offered first, in this order, wherever the JDK supports them. */
    static final List<String> FIRST = List.of("TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    private CipherPreference(SslContext made) { super(made); }

    /** The library's TLS engine options, with every engine they make offering {@link #FIRST} first. */
    static JdkSSLEngineOptions around(JdkSSLEngineOptions library) {
        return new JdkSSLEngineOptions() {
            @Override public JdkSSLEngineOptions copy() { return this; }

            @Override public SslContextFactory sslContextFactory() {
                SslContextFactory made = library.sslContextFactory();
                return () -> new CipherPreference(made.create());
            }
        };
    }

    @Override protected void initEngine(SSLEngine engine) {
        engine.setEnabledCipherSuites(ordered(engine.getSupportedCipherSuites(), engine.getEnabledCipherSuites()));
    }

    /** {@link #FIRST} where {@code supported} holds it, then {@code enabled}, each once. */
    static String[] ordered(String[] supported, String[] enabled) {
        Set<String> known = Set.of(supported);
        Set<String> out = new LinkedHashSet<>();
        FIRST.stream().filter(known::contains).forEach(out::add);
        out.addAll(Arrays.asList(enabled));
        return out.toArray(String[]::new);
    }
}
