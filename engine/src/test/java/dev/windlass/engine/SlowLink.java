package dev.windlass.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on the loopback interface in front of a server on the loopback interface: every byte a client sends
 * reaches the server {@code delay} later (answers come back at once). TLS passes through untouched. As the link of one
 * replica to its API server, every request of that replica lands late, as over a slow or congested network. What a
 * client sends in the first {@link #HANDSHAKE} of a connection passes at once, so opening a connection (the TLS
 * handshake's round trips) costs no more than reusing one: every request is late by the same delay.
 */
final class SlowLink implements AutoCloseable {
    private static final byte[] END = new byte[0];
    static final Duration HANDSHAKE = Duration.ofMillis(250);

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final long delayNanos;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "slow-link");
        t.setDaemon(true);
        return t;
    });

    /** @param target {@code https://127.0.0.1:<port>}: only a server on this machine's loopback interface */
    SlowLink(String target, Duration delay) throws IOException {
        URI uri = URI.create(target);
        InetAddress address = InetAddress.getByName(uri.getHost());
        if (!address.isLoopbackAddress()) throw new IllegalArgumentException("only a loopback server, not " + target);
        this.target = new InetSocketAddress(address, uri.getPort());
        this.delayNanos = delay.toNanos();
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    /** The URL to give the slow client instead of the server's. */
    String url() { return "https://127.0.0.1:" + listener.getLocalPort(); }

    /** How many connections clients opened through this link. */
    int connections() { return connections.get(); }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                connections.incrementAndGet();
                Socket server = new Socket(target.getAddress(), target.getPort());
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                BlockingQueue<Chunk> inFlight = new LinkedBlockingQueue<>();
                long opened = System.nanoTime();
                threads.execute(() -> read(client, opened, inFlight));
                threads.execute(() -> deliver(inFlight, server));
                threads.execute(() -> copy(server, client));
            } catch (IOException e) {
                return;  // closed
            }
        }
    }

    private record Chunk(long due, byte[] bytes) {}

    /** Reads what the client sends, stamped with when it may reach the server. */
    private void read(Socket from, long opened, BlockingQueue<Chunk> inFlight) {
        byte[] buffer = new byte[16384];
        try {
            InputStream in = from.getInputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                long now = System.nanoTime();
                boolean handshake = now - opened < HANDSHAKE.toNanos();
                inFlight.add(new Chunk(handshake ? now : now + delayNanos, Arrays.copyOf(buffer, n)));
            }
        } catch (IOException e) {
            // the connection closed
        }
        inFlight.add(new Chunk(System.nanoTime() + delayNanos, END));
    }

    /** Hands each chunk to the server once its delay has passed. */
    private void deliver(BlockingQueue<Chunk> inFlight, Socket to) {
        try {
            OutputStream out = to.getOutputStream();
            while (true) {
                Chunk c = inFlight.take();
                long wait = c.due() - System.nanoTime();
                if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                if (c.bytes() == END) break;
                out.write(c.bytes());
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException | InterruptedException e) {
            // the connection or the link closed
        }
    }

    /** Hands the server's answers to the client at once; once the server closes, so does the link. */
    private static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[16384];
        try (from; to) {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the connection closed
        }
    }

    @Override public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) s.close();
        threads.shutdownNow();
    }
}
