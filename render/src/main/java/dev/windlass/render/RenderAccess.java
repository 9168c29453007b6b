package dev.windlass.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the engine lets renders reach beyond the repo's own files, set by the engine's flags
 * ({@code --render-allow}, {@code --render-sandbox}) or environment, never by the repo: a repo's Settings may only narrow
 * it.
 *
 * @param sandbox       whether renders run in the file-system sandbox ({@link RenderSandbox})
 * @param remoteBases   kustomizations may name remote bases and pull charts from repositories (the repo's Settings must
 *                      also ask for it)
 * @param privateHosts  chart repositories, registries and remote bases may be on loopback, link-local or private
 *                      addresses (in-cluster services, the host itself, a cloud's metadata address)
 * @param mirrors       where charts are fetched instead of the repositories and registries the repo names
 *                      ({@code --chart-mirror})
 */
public record RenderAccess(RenderSandbox.Mode sandbox, boolean remoteBases, boolean privateHosts, ChartMirrors mirrors) {

    /** The default: every render sandboxed, no remote base, no private address, no mirror. */
    public static final RenderAccess DEFAULT = new RenderAccess(RenderSandbox.Mode.REQUIRED, false, false);

    /** Without mirrors. */
    public RenderAccess(RenderSandbox.Mode sandbox, boolean remoteBases, boolean privateHosts) {
        this(sandbox, remoteBases, privateHosts, ChartMirrors.NONE);
    }

    /** The words {@code --render-allow} takes, comma-separated. */
    public static final List<String> ALLOW_WORDS = List.of("remote-bases", "private-hosts");

    /** The system property and environment variable {@code --render-allow} is read from; the property wins. */
    public static final String ALLOW_PROPERTY = "windlass.render.allow";
    public static final String ALLOW_ENV = "WINDLASS_RENDER_ALLOW";
    public static final String SANDBOX_PROPERTY = "windlass.render.sandbox";
    public static final String SANDBOX_ENV = "WINDLASS_RENDER_SANDBOX";

    /**
     * What this process's flags ({@code --render-allow}, {@code --render-sandbox}, {@code --chart-mirror}, which set the
     * system properties) or environment ({@code WINDLASS_RENDER_ALLOW}, {@code WINDLASS_RENDER_SANDBOX},
     * {@code WINDLASS_CHART_MIRRORS}) say.
     *
     * @throws IllegalArgumentException when they say a word this does not know
     */
    public static RenderAccess fromEnvironment() {
        List<String> problems = new ArrayList<>();
        RenderAccess access = parse(setting(ALLOW_PROPERTY, ALLOW_ENV), setting(SANDBOX_PROPERTY, SANDBOX_ENV), problems);
        ChartMirrors mirrors = ChartMirrors.parse(setting(ChartMirrors.PROPERTY, ChartMirrors.ENV), problems);
        if (!problems.isEmpty()) throw new IllegalArgumentException(String.join("; ", problems));
        return new RenderAccess(access.sandbox(), access.remoteBases(), access.privateHosts(), mirrors);
    }

    private static String setting(String property, String env) {
        String p = System.getProperty(property);
        return p != null ? p : System.getenv(env);
    }

    /**
     * The access that {@code allow} (a comma-separated list of {@link #ALLOW_WORDS}, or empty) and {@code sandbox}
     * ({@code required} or {@code off}, or empty for required) say; a word it does not know is an error, said in the
     * returned problems, and the access is then the default.
     */
    public static RenderAccess parse(String allow, String sandbox, List<String> problems) {
        boolean remote = false;
        boolean hosts = false;
        List<String> wrong = new ArrayList<>();
        for (String word : allow == null ? new String[0] : allow.split(",")) {
            String w = word.strip().toLowerCase(Locale.ROOT);
            if (w.isEmpty()) continue;
            if (w.equals("remote-bases")) remote = true;
            else if (w.equals("private-hosts")) hosts = true;
            else wrong.add(word.strip());
        }
        RenderSandbox.Mode mode = sandbox == null || sandbox.isBlank() ? RenderSandbox.Mode.REQUIRED : RenderSandbox.Mode.of(sandbox.strip());
        if (!wrong.isEmpty()) problems.add("--render-allow takes " + String.join(", ", ALLOW_WORDS) + ", comma-separated; not " + String.join(", ", wrong));
        if (mode == null) problems.add("--render-sandbox takes required or off; not " + sandbox.strip());
        if (!problems.isEmpty()) return DEFAULT;
        return new RenderAccess(mode, remote, hosts);
    }
}
