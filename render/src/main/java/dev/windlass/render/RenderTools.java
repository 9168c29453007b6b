package dev.windlass.render;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * Where the kustomize and helm binaries are, at the versions Windlass pins, and the launcher that runs them in the
 * render sandbox ({@link RenderSandbox}): {@code $WINDLASS_KUSTOMIZE}, {@code $WINDLASS_HELM} and
 * {@code $WINDLASS_RENDER_SANDBOX_LAUNCHER}, {@code $WINDLASS_SOPS}, {@code $WINDLASS_CRANE} (which lists an OCI
 * repository's tags when a chart's version is a range, {@link OciTags}) and {@code $WINDLASS_GOTEMPLATE} (which renders an
 * ApplicationSet's goTemplate, {@link GoTemplateRenderer}) when set; else {@code $WINDLASS_TOOLS_DIR}; else where
 * {@code scripts/render-tools.sh} puts them ({@value #DEFAULT_DIR}); else {@code /usr/local/bin} (the image). A tool
 * that is not there makes the applications that need it fail to render, saying how to get it; nothing else stops.
 */
public record RenderTools(Path kustomize, Path helm, Path sandbox, Path sops, Path crane, Path goTemplate) {

    public static final String KUSTOMIZE_VERSION = "v5.8.2";
    public static final String HELM_VERSION = "v3.22.0";
    /** The sops that decrypts SOPS-encrypted files of an application ({@link SopsDecryptor}). */
    public static final String SOPS_VERSION = "v3.13.3";
    public static final String DEFAULT_DIR = "~/.cache/windlass/tools/kustomize-" + KUSTOMIZE_VERSION + "-helm-" + HELM_VERSION;

    public static RenderTools fromEnvironment() { return from(System::getenv); }

    static RenderTools from(Function<String, String> env) {
        Path dir = dir(env);
        return new RenderTools(tool(env, "WINDLASS_KUSTOMIZE", dir, "kustomize"), tool(env, "WINDLASS_HELM", dir, "helm"),
                tool(env, "WINDLASS_RENDER_SANDBOX_LAUNCHER", dir, "landlock-restrict"), tool(env, "WINDLASS_SOPS", dir, "sops"),
                tool(env, "WINDLASS_CRANE", dir, "crane"), tool(env, "WINDLASS_GOTEMPLATE", dir, "windlass-gotemplate"));
    }

    private static Path dir(Function<String, String> env) {
        String given = env.apply("WINDLASS_TOOLS_DIR");
        if (given != null && !given.isBlank()) return Path.of(given);
        Path cache = Path.of(System.getProperty("user.home"), DEFAULT_DIR.substring(2));
        return Files.isDirectory(cache) ? cache : Path.of("/usr/local/bin");
    }

    private static Path tool(Function<String, String> env, String variable, Path dir, String name) {
        String given = env.apply(variable);
        return given != null && !given.isBlank() ? Path.of(given) : dir.resolve(name);
    }

    /** Why {@code tool} cannot run, or null. */
    static String missing(Path tool) {
        if (Files.isExecutable(tool)) return null;
        return tool.getFileName() + " is not installed at " + tool + ": run scripts/render-tools.sh (it builds kustomize "
                + KUSTOMIZE_VERSION + ", helm " + HELM_VERSION + ", sops " + SOPS_VERSION + ", crane, windlass-gotemplate and the render sandbox), or set WINDLASS_TOOLS_DIR";
    }

    /** The tools and their pinned versions, part of every render's cache key. */
    Map<String, String> versions() { return Map.of("kustomize", KUSTOMIZE_VERSION, "helm", HELM_VERSION); }
}
