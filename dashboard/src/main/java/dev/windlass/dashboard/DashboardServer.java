package dev.windlass.dashboard;

import java.net.InetSocketAddress;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** The dashboard on a listener of its own (the demo's); {@code windlass run} serves it on the engine's listener. */
public final class DashboardServer implements AutoCloseable {
    private final Server server;

    public DashboardServer(InetSocketAddress address, Dashboard dashboard) {
        server = new Server(address);
        server.setHandler(dashboard);
    }

    public DashboardServer start() throws Exception {
        server.start();
        return this;
    }

    public int port() { return ((ServerConnector) server.getConnectors()[0]).getLocalPort(); }

    @Override public void close() throws Exception { server.stop(); }
}
