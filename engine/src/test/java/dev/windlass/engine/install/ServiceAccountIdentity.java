package dev.windlass.engine.install;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * A ServiceAccount's identity as a Pod of it gets one: a bound token from the TokenRequest API, checked by the API
 * server against the ServiceAccount on every request (deleting the ServiceAccount revokes it).
 */
final class ServiceAccountIdentity {
    private ServiceAccountIdentity() {}

    /** A fresh token for {@code namespace/name}, valid for ten minutes. */
    static String token(KubernetesClient admin, String namespace, String name) {
        TokenRequest request = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L).endSpec().build();
        return admin.serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(request).getStatus().getToken();
    }

    /** A client configuration for the API server at {@code url} as the holder of {@code token}. */
    static Config config(String url, String token, String namespace) {
        return new ConfigBuilder(Config.empty()).withMasterUrl(url).withOauthToken(token).withTrustCerts(true)
                .withNamespace(namespace).withRequestRetryBackoffLimit(0).build();
    }

    static KubernetesClient client(String url, String token, String namespace) {
        return new KubernetesClientBuilder().withConfig(config(url, token, namespace)).build();
    }

    /** A kubeconfig for the API server at {@code url} as the holder of {@code token}; TLS is not verified (test certificates). */
    static String kubeconfig(String url, String token) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: member
                  cluster: {server: "%s", insecure-skip-tls-verify: true}
                users:
                - name: windlass
                  user: {token: "%s"}
                contexts:
                - name: member
                  context: {cluster: member, user: windlass}
                current-context: member
                """.formatted(url, token);
    }
}
