package dev.windlass.applier.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import org.junit.jupiter.api.Test;

/** Which kubeconfigs keep the client library's refresh: those whose user gets credentials from a command or an auth provider. */
class PinnedCredentialsTest {

    static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: c
              cluster: {server: "https://127.0.0.1:6443"}
            users:
            - name: token
              user: {token: a-token}
            - name: certificates
              user: {client-certificate-data: Y2VydA==, client-key-data: a2V5}
            - name: command
              user:
                exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/false, interactiveMode: Never}
            - name: provider
              user:
                auth-provider: {name: oidc, config: {id-token: an-id-token}}
            contexts:
            - {name: token, context: {cluster: c, user: token}}
            - {name: certificates, context: {cluster: c, user: certificates}}
            - {name: command, context: {cluster: c, user: command}}
            - {name: provider, context: {cluster: c, user: provider}}
            - {name: nobody, context: {cluster: c, user: not-listed}}
            current-context: command
            """;

    private static boolean issued(String context) {
        return PinnedCredentials.issuedOnDemand(KubeConfigUtils.parseConfigFromString(KUBECONFIG), context);
    }

    @Test void aTokenOrCertificatesInTheFileArePinned() {
        assertFalse(issued("token"));
        assertFalse(issued("certificates"));
    }

    @Test void aCommandOrAnAuthProviderKeepsTheLibrarysRefresh() {
        assertTrue(issued("command"));
        assertTrue(issued("provider"));
        assertTrue(issued(null), "no context named: the current one, a command");
    }

    @Test void aContextOrUserThatCannotBeFoundKeepsTheLibrarysRefresh() {
        assertTrue(issued("nobody"));
        assertTrue(issued("not-a-context"));
    }

    @Test void aPinnedTokenIsTheOneTheFileNamed() {
        Config config = PinnedCredentials.pinUnlessIssued(Config.fromKubeconfig("token", KUBECONFIG, null), KUBECONFIG, "token");
        assertNotNull(config.getOauthTokenProvider());
        assertEquals("a-token", config.getOauthTokenProvider().getToken());

        Config certificates = PinnedCredentials.pinUnlessIssued(Config.fromKubeconfig("certificates", KUBECONFIG, null), KUBECONFIG, "certificates");
        assertNull(certificates.getOauthTokenProvider().getToken(), "no token: requests carry the certificates only");
    }
}
