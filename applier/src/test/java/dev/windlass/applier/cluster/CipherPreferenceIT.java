package dev.windlass.applier.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.windlass.applier.support.RealCluster;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cipher a cluster client's TLS connection ends up with: ChaCha20-Poly1305 where the server takes the client's
 * first choice, as a real API server does, and AES-GCM from a server that insists on its own order.
 */
class CipherPreferenceIT {

    @TempDir Path dir;

    /** A real API server, offered ChaCha20-Poly1305 first, takes it: what the engine's clients rely on. */
    @Test void aRealApiServerTakesChaCha20WhenTheClientOffersItFirst() throws Exception {
        try (RealCluster cluster = RealCluster.start()) {
            URI api = URI.create(cluster.admin().getConfiguration().getMasterUrl());
            SSLContext trustAll = SSLContext.getInstance("TLS");
            trustAll.init(null, new TrustManager[] {new TrustAll()}, null);
            try (SSLSocket socket = (SSLSocket) trustAll.getSocketFactory().createSocket(api.getHost(), api.getPort())) {
                socket.setEnabledCipherSuites(CipherPreference.ordered(socket.getSupportedCipherSuites(), socket.getEnabledCipherSuites()));
                socket.startHandshake();
                assertEquals("TLS_CHACHA20_POLY1305_SHA256", socket.getSession().getCipherSuite());
            }
            // And without the preference, the same server and JDK agree on AES-GCM: the order is what decides.
            try (SSLSocket socket = (SSLSocket) trustAll.getSocketFactory().createSocket(api.getHost(), api.getPort())) {
                socket.startHandshake();
                assertTrue(socket.getSession().getCipherSuite().contains("_AES_"), socket.getSession().getCipherSuite());
            }
        }
    }

    /** A cluster's client, made as the engine makes it, offers ChaCha20-Poly1305 first, and still agrees on AES-GCM with a server that will have it. */
    @Test void aClusterClientOffersChaCha20FirstAndStillReachesAServerThatInsistsOnAesGcm() throws Exception {
        Path keystore = keystore();
        String caPem = exported(keystore);
        for (boolean serverOrder : List.of(false, true)) {
            List<String> negotiated = new CopyOnWriteArrayList<>();
            HttpsServer server = server(keystore, serverOrder, negotiated);
            try (ClusterClients clients = new ClusterClients(new ClientSettings(Duration.ofSeconds(2), Duration.ofSeconds(5), 0, Duration.ofMillis(100)))) {
                Config config = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:" + server.getAddress().getPort())
                        .withCaCertData(java.util.Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII)))
                        .withOauthToken("t").build();
                clients.register("tls", config, false);
                var connected = assertInstanceOf(ClusterConnection.Connected.class, clients.connection("tls"));
                assertTrue(connected.client().namespaces().list().getItems().isEmpty());
            } finally {
                server.stop(0);
            }
            assertEquals(1, negotiated.size(), negotiated.toString());
            if (serverOrder) {
                assertTrue(negotiated.get(0).contains("_AES_") && negotiated.get(0).contains("GCM"), "the server's own first choice: " + negotiated);
            } else {
                assertEquals("TLS_CHACHA20_POLY1305_SHA256", negotiated.get(0), "the client's first choice");
            }
        }
    }

    /** An HTTPS server answering an empty NamespaceList, recording each exchange's cipher; {@code serverOrder}: it picks by its own order. */
    private static HttpsServer server(Path keystore, boolean serverOrder, List<String> negotiated) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override public void configure(HttpsParameters params) {
                SSLParameters p = context.getDefaultSSLParameters();
                p.setUseCipherSuitesOrder(serverOrder);
                params.setSSLParameters(p);
            }
        });
        server.createContext("/", exchange -> {
            negotiated.add(((HttpsExchange) exchange).getSSLSession().getCipherSuite());
            byte[] body = "{\"kind\":\"NamespaceList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    private static final String PASSWORD = "changeit";

    /** A self-signed key pair for 127.0.0.1, made by the JDK's keytool. */
    private Path keystore() throws IOException, InterruptedException {
        Path keystore = dir.resolve("server.p12");
        run(keytool(), "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        return keystore;
    }

    private String exported(Path keystore) throws IOException, InterruptedException {
        return run(keytool(), "-exportcert", "-rfc", "-alias", "server", "-keystore", keystore.toString(), "-storepass", PASSWORD);
    }

    private static String keytool() { return Path.of(System.getProperty("java.home"), "bin", "keytool").toString(); }

    private String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    /** Trusts any server: the first test asks only which cipher a handshake agrees on. */
    private static final class TrustAll implements X509TrustManager {
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
    }
}
