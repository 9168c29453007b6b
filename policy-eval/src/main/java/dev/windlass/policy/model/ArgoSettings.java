package dev.windlass.policy.model;

import java.util.List;

/**
 * How Windlass reads the Argo CD {@code Application}s of a repo ({@code Settings.spec.argocd}).
 *
 * @param repoURLs the addresses Argo CD {@code spec.source.repoURL} names this repo by; an Application whose source is
 *                 another repo is not read yet
 */
public record ArgoSettings(List<String> repoURLs) {
    public static final ArgoSettings NONE = new ArgoSettings(List.of());

    public ArgoSettings {
        repoURLs = List.copyOf(repoURLs);
    }

    /** Whether {@code url} names this repo: the same address, but for case, a trailing '/' or '.git'. */
    public boolean isThisRepo(String url) {
        String u = comparable(url);
        return repoURLs.stream().anyMatch(r -> comparable(r).equals(u));
    }

    private static String comparable(String url) {
        String s = url.trim().toLowerCase(java.util.Locale.ROOT);
        while (s.endsWith("/")) s = s.substring(0, s.length() - 1);
        if (s.endsWith(".git")) s = s.substring(0, s.length() - 4);
        return s;
    }
}
