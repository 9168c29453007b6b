package dev.windlass.kubetest;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Plain HTTP requests to the servers the launcher started, for readiness and metrics. Kept apart from the
 * Kubernetes client so that probing needs no client lifecycle, and the API server's TLS is checked against the
 * certificate it generated rather than switched off.
 */
final class ApiProbe {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http;
    private final String token;

    private ApiProbe(HttpClient http, String token) {
        this.http = http;
        this.token = token;
    }

    /** For plain-HTTP endpoints (etcd's /health). */
    static ApiProbe plain() {
        return new ApiProbe(HttpClient.newBuilder().connectTimeout(TIMEOUT).build(), null);
    }

    /** Trusts exactly the certificates in {@code servingCert} (the API server's self-signed pair). */
    static ApiProbe trusting(Path servingCert, String token) throws IOException {
        try (InputStream in = Files.newInputStream(servingCert)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("apiserver-" + i++, cert);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            return new ApiProbe(HttpClient.newBuilder().connectTimeout(TIMEOUT).sslContext(tls).build(), token);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot trust " + servingCert + ": " + e.getMessage(), e);
        }
    }

    /** The response, or null when the server did not answer (not listening yet, or busy starting). */
    HttpResponse<String> get(String url) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET();
        if (token != null) request.header("Authorization", "Bearer " + token);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while probing " + url, e);
        }
    }

    boolean ok(String url) {
        HttpResponse<String> response = get(url);
        return response != null && response.statusCode() == 200;
    }
}
