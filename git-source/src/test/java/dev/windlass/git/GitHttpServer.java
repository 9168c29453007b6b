package dev.windlass.git;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jgit.http.server.GitServlet;
import org.eclipse.jgit.transport.resolver.FileResolver;

/**
 * A smart-HTTP Git server on a free local port that serves every repository under a directory at {@code /git/<name>}
 * and demands basic auth with a token, as hosted Git services do.
 */
final class GitHttpServer implements AutoCloseable {

    private final Server server;
    private final int port;

    private BasicAuth auth;

    /** From now on the server accepts {@code token} only, as a host does once a token was rotated. */
    void acceptOnly(String token) { auth.accept(token); }

    /** From now on the server answers 403 to every request, as a host does to a token without access to the repo. */
    void forbidAll() { auth.forbidden = true; }

    private GitHttpServer(Server server, int port) {
        this.server = server;
        this.port = port;
    }

    static GitHttpServer start(Path repositories, String token) throws Exception {
        GitServlet git = new GitServlet();
        git.setRepositoryResolver(new FileResolver<>(repositories.toFile(), true));
        ServletContextHandler context = new ServletContextHandler("/");
        context.addServlet(new ServletHolder(git), "/git/*");
        BasicAuth auth = new BasicAuth(token);
        context.addFilter(new FilterHolder(auth), "/*", EnumSet.of(DispatcherType.REQUEST));
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(context);
        server.start();
        GitHttpServer started = new GitHttpServer(server, connector.getLocalPort());
        started.auth = auth;
        return started;
    }

    /** The clone URL of {@code name}, a repository directory directly under the served directory. */
    String url(String name) {
        return "http://127.0.0.1:" + port + "/git/" + name;
    }

    @Override public void close() throws Exception {
        server.stop();
    }

    /** Accepts only the token user; tells JGit's server who pushed, which it requires before allowing a push. */
    private static final class BasicAuth implements Filter {
        private volatile String expected;
        private volatile boolean forbidden;

        BasicAuth(String token) { accept(token); }

        void accept(String token) {
            String pair = GitCredentials.TOKEN_USERNAME + ":" + token;
            this.expected = "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        }

        @Override public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            HttpServletRequest http = (HttpServletRequest) request;
            if (forbidden) {
                ((HttpServletResponse) response).sendError(HttpServletResponse.SC_FORBIDDEN);
                return;
            }
            if (!expected.equals(http.getHeader("Authorization"))) {
                HttpServletResponse denied = (HttpServletResponse) response;
                denied.setHeader("WWW-Authenticate", "Basic realm=\"git\"");
                denied.sendError(HttpServletResponse.SC_UNAUTHORIZED);
                return;
            }
            chain.doFilter(new HttpServletRequestWrapper(http) {
                @Override public String getRemoteUser() { return GitCredentials.TOKEN_USERNAME; }
            }, response);
        }
    }
}
