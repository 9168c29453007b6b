package dev.windlass.dashboard;

/**
 * Links from a {@code path:line:col} to the file on the Git host, when one is configured: {@code base} is the
 * repository's web address ({@code https://git.example.com/platform/fleet-config}); {@code host} says how the host
 * addresses a file at a commit ({@code github}: {@code /blob/<commit>/<path>#L<line>}, {@code gitea}:
 * {@code /src/commit/<commit>/<path>#L<line>}).
 */
public record GitLinks(String base, String host) {
    public static final GitLinks NONE = new GitLinks(null, null);

    public GitLinks {
        if (base != null) {
            base = base.strip();
            while (base.endsWith("/")) base = base.substring(0, base.length() - 1);
            if (base.endsWith(".git")) base = base.substring(0, base.length() - 4);
            if (base.isEmpty() || !(base.startsWith("https://") || base.startsWith("http://")) || base.contains("@")) {
                throw new IllegalArgumentException("a repository's web address is an http(s) URL without credentials, such as "
                        + "https://git.example.com/platform/fleet-config; got '" + base + "'");
            }
        }
        host = host == null ? "github" : host;
    }

    /** The file's address at {@code commit}, on its line; null when no host is configured. */
    public String file(String commit, String path, int line) {
        if (base == null || commit == null || path == null) return null;
        String at = host.equals("gitea") ? "/src/commit/" : "/blob/";
        return base + at + commit + "/" + path + (line > 0 ? "#L" + line : "");
    }
}
