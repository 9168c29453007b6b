package dev.windlass.applier.cluster;

import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.util.List;
import java.util.Objects;

/**
 * Credentials that cannot change while a client lives, pinned so that the client library never reads the kubeconfig
 * again for them.
 *
 * <p>The client library refreshes a client's token by reading its kubeconfig file again and parsing it: once a minute
 * when the kubeconfig names a token, and, when it names none (client certificates, the usual kubeconfig of a local
 * cluster), before every request once the client is a minute old, because only a token found marks a refresh done.
 * That is two file reads and a parse (about 0.2 ms of CPU) for every readiness probe, read and write of a fleet's
 * passes, idle or not. Only a command ({@code exec}) or an auth provider issues credentials that expire while a client
 * lives; they keep the library's refresh. Every other kubeconfig is pinned, and a changed file is the engine's to
 * notice: {@link ClusterClients} compares it by hash on every pass that connects the fleet and connects with the new
 * one, tokens and certificates alike.
 */
final class PinnedCredentials {

    private PinnedCredentials() {}

    /** {@code config}, read from {@code text} for {@code context}, with its credentials pinned unless they are issued on demand. */
    static Config pinUnlessIssued(Config config, String text, String context) {
        if (issuedOnDemand(KubeConfigUtils.parseConfigFromString(text), context)) return config;
        String token = config.getAutoOAuthToken();
        config.setOauthTokenProvider(() -> token);
        return config;
    }

    /**
     * Whether the user of {@code context} (or of the current context) gets its credentials from a command or an auth
     * provider; also when the user cannot be found, so that anything unclear keeps the library's own refresh.
     */
    static boolean issuedOnDemand(io.fabric8.kubernetes.api.model.Config parsed, String context) {
        String contextName = context != null ? context : parsed.getCurrentContext();
        NamedContext named = find(parsed.getContexts(), c -> Objects.equals(c.getName(), contextName));
        if (named == null || named.getContext() == null) return true;
        String userName = named.getContext().getUser();
        NamedAuthInfo user = find(parsed.getUsers(), u -> Objects.equals(u.getName(), userName));
        if (user == null) return true;
        AuthInfo info = user.getUser();
        return info != null && (info.getExec() != null || info.getAuthProvider() != null);
    }

    private static <T> T find(List<T> items, java.util.function.Predicate<T> which) {
        if (items == null) return null;
        for (T item : items) if (which.test(item)) return item;
        return null;
    }
}
