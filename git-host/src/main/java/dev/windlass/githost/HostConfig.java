package dev.windlass.githost;

import java.net.URI;
import java.util.regex.Pattern;

/**
 * Where the Git host's API is and which repository to talk about.
 *
 * @param apiUrl     the API root, used as given: {@code https://api.github.com},
 *                   {@code https://git.example.com/api/v1} for Gitea
 * @param repository {@code owner/name}
 * @param token      sent as the Authorization header; null or blank sends none. Never printed.
 */
public record HostConfig(HostKind kind, URI apiUrl, String repository, String token) {

    private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");

    public HostConfig {
        if (kind == null) throw new IllegalArgumentException("review.host kind is missing: github or gitea");
        if (apiUrl == null) throw new IllegalArgumentException("review.host apiUrl is missing");
        if (apiUrl.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    "review.host apiUrl must not carry credentials: give them as the review token instead");
        }
        String scheme = apiUrl.getScheme();
        if (!"https".equalsIgnoreCase(scheme) && !"http".equalsIgnoreCase(scheme) || apiUrl.getHost() == null
                || apiUrl.getRawQuery() != null || apiUrl.getRawFragment() != null) {
            throw new IllegalArgumentException("review.host apiUrl must be an http(s) URL without query, e.g. "
                    + "https://api.github.com or https://git.example.com/api/v1, got " + apiUrl);
        }
        if (repository == null || !REPOSITORY.matcher(repository).matches()
                || repository.startsWith("./") || repository.startsWith("../")
                || repository.endsWith("/.") || repository.endsWith("/..")) {
            throw new IllegalArgumentException("review.host repository must be owner/name, got " + repository);
        }
        if (token != null) {
            token = token.strip();
            if (token.isEmpty()) {
                token = null;
            } else if (token.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
                throw new IllegalArgumentException("the review token contains spaces or control characters");
            }
        }
    }

    boolean hasToken() {
        return token != null;
    }

    @Override
    public String toString() {
        return "HostConfig[kind=" + kind + ", apiUrl=" + apiUrl + ", repository=" + repository
                + ", token=" + (token == null ? "none" : "(set)") + "]";
    }
}
