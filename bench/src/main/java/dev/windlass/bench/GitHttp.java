package dev.windlass.bench;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jgit.http.server.GitServlet;
import org.eclipse.jgit.transport.ReceivePack;
import org.eclipse.jgit.transport.resolver.FileResolver;

/**
 * The side-by-side scenario's Git host: JGit's smart-HTTP server on a free loopback port, serving every repository under
 * a directory at {@code /git/<name>} without authentication, and counting what each engine asks of it: ref
 * advertisements for a fetch ({@code info/refs?service=git-upload-pack}), upload-pack requests (the fetch itself, and
 * with protocol v2 the listing of refs too), and pushes (their advertisement and the push).
 */
final class GitHttp implements AutoCloseable {
    /** Requests so far: ref advertisements and fetches. */
    record Requests(long refs, long fetches, long pushes) {
        Requests minus(Requests earlier) { return new Requests(refs - earlier.refs, fetches - earlier.fetches, pushes - earlier.pushes); }
    }

    private final Server server;
    private final int port;
    private final AtomicLong refs = new AtomicLong();
    private final AtomicLong fetches = new AtomicLong();
    private final AtomicLong pushes = new AtomicLong();
    /** When the last push request came, in epoch milliseconds; 0: none yet. */
    private final AtomicLong lastPush = new AtomicLong();

    private GitHttp(Path repositories) throws Exception {
        GitServlet git = new GitServlet();
        git.setRepositoryResolver(new FileResolver<>(repositories.toFile(), true));
        // Pushes too without credentials (JGit's server refuses an anonymous push by default): the engine records its
        // status on this host, and nothing but this machine reaches the loopback port.
        git.setReceivePackFactory((request, repository) -> new ReceivePack(repository));
        ServletContextHandler context = new ServletContextHandler("/");
        context.addServlet(new ServletHolder(git), "/git/*");
        context.addFilter(new FilterHolder(new Counting()), "/*", EnumSet.of(DispatcherType.REQUEST));
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(context);
        server.start();
        port = connector.getLocalPort();
    }

    static GitHttp serve(Path repositories) throws Exception { return new GitHttp(repositories); }

    /** The clone URL of {@code name}, a bare repository directly under the served directory. */
    String url(String name) { return "http://127.0.0.1:" + port + "/git/" + name; }

    Requests requests() { return new Requests(refs.get(), fetches.get(), pushes.get()); }

    /** When the last push request came; {@link Instant#EPOCH} when none has. */
    Instant lastPush() { return Instant.ofEpochMilli(lastPush.get()); }

    @Override public void close() throws Exception { server.stop(); }

    private final class Counting implements Filter {
        @Override public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            HttpServletRequest http = (HttpServletRequest) request;
            String uri = http.getRequestURI();
            boolean push = uri.endsWith("/git-receive-pack") || "git-receive-pack".equals(http.getParameter("service"));
            if (push) {
                pushes.incrementAndGet();
                lastPush.set(System.currentTimeMillis());
            }
            else if (uri.endsWith("/info/refs")) refs.incrementAndGet();
            else if (uri.endsWith("/git-upload-pack")) fetches.incrementAndGet();
            chain.doFilter(request, response);
        }
    }
}
