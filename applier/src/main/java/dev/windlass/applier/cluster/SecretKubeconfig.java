package dev.windlass.applier.cluster;

import dev.windlass.policy.model.Cluster;
import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * A kubeconfig kept in a Secret of the engine's namespace ({@code kubeconfigSecretRef}), read through the management
 * cluster. Its content is held only in memory, compared by hash, and never written or quoted: every message names the
 * Secret and key and says what is wrong, never what the Secret holds.
 */
final class SecretKubeconfig {

    /** What one read found: the kubeconfig's text and its hash, or why there is none and whether trying again may help. */
    record Read(String text, String hash, String problem, boolean transientProblem) {
        static Read found(String text) { return new Read(text, sha256(text), null, false); }

        static Read failed(String problem, boolean transientProblem) { return new Read(null, null, problem, transientProblem); }

        boolean ok() { return problem == null; }
    }

    private SecretKubeconfig() {}

    /** Reads the Secret by name (the engine may only get Secrets of its namespace, by name). */
    static Read read(KubernetesClient management, String namespace, Cluster.KubeconfigSecret ref) {
        String where = "Secret " + namespace + "/" + ref.name();
        Secret secret;
        try {
            secret = management.secrets().inNamespace(namespace).withName(ref.name()).get();
        } catch (KubernetesClientException e) {
            boolean transientProblem = e.getCode() == 0 || e.getCode() == 429 || e.getCode() >= 500;
            String status = e.getCode() == 0 ? "no answer from the management cluster" : "HTTP " + e.getCode()
                    + (e.getCode() == 403 ? " (forbidden: the engine may read Secrets of its own namespace only)" : "");
            return Read.failed("cannot read " + where + ": " + status, transientProblem);
        }
        if (secret == null) return Read.failed(where + " does not exist", false);
        String base64 = secret.getData() == null ? null : secret.getData().get(ref.key());
        if (base64 == null) return Read.failed(where + " has no key " + ref.key(), false);
        try {
            return Read.found(new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return Read.failed(where + " key " + ref.key() + " is not base64", false);
        }
    }

    /**
     * A client configuration from the kubeconfig, or an exception whose message names {@code where} and what is wrong.
     * The kubeconfig must carry everything inline: a file path or a command in it would make a Secret's writer choose
     * what the engine reads on its host or runs there.
     */
    static Config config(String text, String context, String where) {
        io.fabric8.kubernetes.api.model.Config parsed;
        try {
            parsed = KubeConfigUtils.parseConfigFromString(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the kubeconfig in " + where + " cannot be read as a kubeconfig (" + e.getClass().getSimpleName() + ")");
        }
        List<String> outside = outsideReferences(parsed);
        if (!outside.isEmpty()) {
            throw new IllegalArgumentException("the kubeconfig in " + where + " refers to files or commands (" + String.join(", ", outside)
                    + "); a kubeconfig in a Secret must carry its credentials inline (token, client-certificate-data, "
                    + "certificate-authority-data)");
        }
        try {
            return PinnedCredentials.pinUnlessIssued(Config.fromKubeconfig(context, text, null), text, context);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the kubeconfig in " + where + (context == null ? "" : " (context " + context + ")")
                    + " is not one the client can use (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The fields that lead off the kubeconfig: by position, never by value. */
    private static List<String> outsideReferences(io.fabric8.kubernetes.api.model.Config parsed) {
        List<String> found = new ArrayList<>();
        List<NamedCluster> clusters = parsed.getClusters() == null ? List.of() : parsed.getClusters();
        for (int i = 0; i < clusters.size(); i++) {
            var c = clusters.get(i).getCluster();
            if (c != null && c.getCertificateAuthority() != null) found.add("clusters[" + i + "].cluster.certificate-authority");
        }
        List<NamedAuthInfo> users = parsed.getUsers() == null ? List.of() : parsed.getUsers();
        for (int i = 0; i < users.size(); i++) {
            AuthInfo u = users.get(i).getUser();
            if (u == null) continue;
            String at = "users[" + i + "].user.";
            if (u.getClientCertificate() != null) found.add(at + "client-certificate");
            if (u.getClientKey() != null) found.add(at + "client-key");
            if (u.getTokenFile() != null) found.add(at + "tokenFile");
            if (u.getExec() != null) found.add(at + "exec");
            if (u.getAuthProvider() != null) found.add(at + "auth-provider");
        }
        return found;
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
