package dev.windlass.engine.cli;

import dev.windlass.dashboard.BearerToken;
import dev.windlass.dashboard.Dashboard;
import dev.windlass.dashboard.GitLinks;
import dev.windlass.dashboard.ViewBoard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The dashboard's options, for {@code run} and {@code demo}. */
final class DashboardOptions {
    static final String TOKEN_ENV = "WINDLASS_DASHBOARD_TOKEN";

    @Option(names = "--no-dashboard", description = "serve no dashboard pages (the probes, /metrics and /webhook stay)")
    boolean off;

    @Option(names = "--dashboard-token-file", paramLabel = "FILE",
            description = "the dashboard asks for this bearer token (or env " + TOKEN_ENV + "); default: none, it is open to whoever reaches the listener")
    Path tokenFile;

    @Option(names = "--git-web-url", paramLabel = "URL",
            description = "the config repo's web address (https://git.example.com/platform/fleet-config): validation errors link to the file there")
    String gitWebUrl;

    @Option(names = "--git-web-host", paramLabel = "github|gitea", defaultValue = "github",
            description = "how that host addresses a file at a commit (default: ${DEFAULT-VALUE})")
    String gitWebHost;

    /** The dashboard on {@code views}, or null with {@code --no-dashboard}. */
    Dashboard handler(ViewBoard views, CommandSpec spec) {
        if (off) return null;
        if (!gitWebHost.equals("github") && !gitWebHost.equals("gitea")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--git-web-host is github or gitea, not '" + gitWebHost + "'");
        }
        GitLinks links;
        try {
            links = gitWebUrl == null ? GitLinks.NONE : new GitLinks(gitWebUrl, gitWebHost);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--git-web-url: " + e.getMessage());
        }
        return new Dashboard(views, token(), links);
    }

    /** True when the dashboard asks for a token. */
    boolean guarded() { return token().required(); }

    private BearerToken token() {
        try {
            return new BearerToken(tokenFile != null ? Files.readString(tokenFile) : System.getenv(TOKEN_ENV));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --dashboard-token-file " + tokenFile + ": " + e.getMessage(), e);
        }
    }
}
