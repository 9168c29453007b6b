package dev.windlass.engine.cli;

import dev.windlass.render.ChartMirrors;
import dev.windlass.render.RenderAccess;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What renders may reach beyond the repo, for every command that renders: the engine's own flags, never the repo's.
 * Each flag sets the system property {@link RenderAccess#fromEnvironment()} reads, which wins over the environment
 * variable of the same meaning.
 */
final class RenderOptions {

    @Spec(Spec.Target.MIXEE) CommandSpec mixee;

    @Option(names = "--render-allow", paramLabel = "WORD[,WORD]",
            description = "let renders reach more (default: env " + RenderAccess.ALLOW_ENV + ", else nothing more): remote-bases (kustomize remote"
                    + " bases and chart repositories, when the repo's Settings also ask for them), private-hosts (chart repositories,"
                    + " registries and remote bases on loopback, link-local or private addresses)")
    void allow(String words) {
        check(words, null);
        System.setProperty(RenderAccess.ALLOW_PROPERTY, words);
    }

    @Option(names = "--render-sandbox", paramLabel = "required|off",
            description = "required (the default, or env " + RenderAccess.SANDBOX_ENV + "): every render runs confined by the kernel to its own"
                    + " files, and fails where the kernel cannot confine it; off: renders may read any file the engine can")
    void sandbox(String mode) {
        check(null, mode);
        System.setProperty(RenderAccess.SANDBOX_PROPERTY, mode);
    }

    @Option(names = "--chart-mirror", paramLabel = "ORIGIN=URL",
            description = "fetch the charts the repo names under ORIGIN (a chart repository's https:// URL, or an oci:// registry path) from"
                    + " URL instead, the rest of the address appended; repeatable, the longest origin wins (default: env " + ChartMirrors.ENV
                    + ", comma-separated). A registry's mirror is oci://host/path, or http://host/path for plain HTTP. The mirror's address"
                    + " may be private or loopback; nothing else is widened")
    void mirror(String[] entries) {
        String joined = String.join(",", entries);
        List<String> problems = new ArrayList<>();
        ChartMirrors.parse(joined, problems);
        if (!problems.isEmpty()) throw new CommandLine.ParameterException(mixee.commandLine(), String.join("; ", problems));
        System.setProperty(ChartMirrors.PROPERTY, joined);
    }

    private void check(String allow, String sandbox) {
        List<String> problems = new ArrayList<>();
        RenderAccess.parse(allow, sandbox, problems);
        if (!problems.isEmpty()) throw new CommandLine.ParameterException(mixee.commandLine(), String.join("; ", problems));
    }
}
