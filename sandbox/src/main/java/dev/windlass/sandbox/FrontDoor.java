package dev.windlass.sandbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The address clients use for a sandbox cluster: relays TCP bytes to the mock API server. It exists so that "down"
 * looks like an unreachable server rather than an HTTP error: while down, open connections are reset and new ones
 * are accepted and reset at once. The mock server offers no way to drop a connection, and restarting it on the
 * same port is not supported. While hung, the cluster looks like an API server whose process is stopped: new
 * connections are accepted and held, and no byte moves on any connection, open or new, until it is thawed. One
 * thread per cluster, mostly asleep in select().
 */
final class FrontDoor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FrontDoor.class);

    private final String name;
    private final InetSocketAddress backend;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final Set<Splice> open = new HashSet<>(); // touched by the relay thread only
    private final List<SocketChannel> held = new java.util.ArrayList<>(); // accepted while hung; relay thread only
    private final Thread relay;
    private volatile boolean down;
    private volatile boolean hung;
    private boolean paused; // whether the open splices are paused; relay thread only
    private volatile boolean closing;

    FrontDoor(String name, InetAddress host, int backendPort) throws IOException {
        this.name = name;
        this.backend = new InetSocketAddress(host, backendPort);
        this.selector = Selector.open();
        try {
            this.listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(host, 0), 256);
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            selector.close();
            throw e;
        }
        this.relay = new Thread(this::run, "sandbox-" + name + "-door");
        relay.setDaemon(true);
        relay.start();
    }

    int port() {
        return listener.socket().getLocalPort();
    }

    void down(boolean value) {
        down = value;
        selector.wakeup();
    }

    boolean isDown() {
        return down;
    }

    /**
     * {@code true}: every connection, open or new, stops moving bytes; new ones are accepted (the listening socket
     * stays open) and held. {@code false}: everything moves again, held connections are joined to the API server.
     */
    void hang(boolean value) {
        hung = value;
        selector.wakeup();
    }

    boolean isHung() {
        return hung;
    }

    private void run() {
        try {
            while (!closing) {
                selector.select();
                if (down) {
                    resetAll();
                }
                if (hung != paused) {
                    pauseAll(hung);
                }
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                    } else {
                        ((Splice) key.attachment()).pump(key);
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!closing) {
                log.warn("front door of sandbox cluster {} stopped: {}", name, e.toString());
            }
        } finally {
            // Closing is an orderly shutdown, not an outage: clients get a normal end of stream, not a reset.
            for (Splice splice : List.copyOf(open)) {
                splice.close();
            }
            for (SocketChannel client : held) {
                quietly(client);
            }
            quietly(listener);
            quietly(selector);
        }
    }

    private void accept() throws IOException {
        SocketChannel client;
        while ((client = listener.accept()) != null) {
            if (down) {
                Splice.reset(client);
                continue;
            }
            if (hung) {
                held.add(client);
                continue;
            }
            join(client);
        }
    }

    private void join(SocketChannel client) {
        try {
            // Loopback connects complete at once, so a blocking connect does not stall the relay.
            SocketChannel server = SocketChannel.open(backend);
            open.add(new Splice(client, server, selector, open::remove));
        } catch (IOException e) {
            log.debug("sandbox cluster {}: cannot reach the API server: {}", name, e.toString());
            Splice.reset(client);
        }
    }

    private void pauseAll(boolean pause) {
        paused = pause;
        for (Splice splice : List.copyOf(open)) {
            if (pause) {
                splice.pause();
            } else {
                splice.resume();
            }
        }
        if (!pause) {
            // What their clients sent while the cluster hung waits, unread, in the sockets: the server gets it now.
            for (SocketChannel client : List.copyOf(held)) {
                join(client);
            }
            held.clear();
        }
    }

    private void resetAll() {
        for (Splice splice : List.copyOf(open)) {
            splice.reset();
        }
        for (SocketChannel client : held) {
            Splice.reset(client);
        }
        held.clear();
    }

    @Override public void close() {
        closing = true;
        selector.wakeup();
        try {
            relay.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void quietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // shutting down: nothing left to tell
        }
    }
}
