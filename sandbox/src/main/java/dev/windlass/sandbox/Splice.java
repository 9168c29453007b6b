package dev.windlass.sandbox;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * One client connection joined to one API-server connection by the front door. Buffers are kept in write mode: the
 * bytes between 0 and position wait to be sent on. When either side closes, the pending bytes are delivered and then
 * both sides are closed; HTTP clients never half-close, so nothing is lost by not relaying a half-close.
 */
final class Splice {

    private static final int BUFFER = 32 * 1024;

    private final SocketChannel client;
    private final SocketChannel server;
    private final SelectionKey clientKey;
    private final SelectionKey serverKey;
    private final ByteBuffer toServer = ByteBuffer.allocate(BUFFER);
    private final ByteBuffer toClient = ByteBuffer.allocate(BUFFER);
    private final Consumer<Splice> onClose;
    private boolean clientDone;
    private boolean serverDone;
    private boolean paused;

    Splice(SocketChannel client, SocketChannel server, Selector selector, Consumer<Splice> onClose) throws IOException {
        this.client = client;
        this.server = server;
        this.onClose = onClose;
        try {
            for (SocketChannel c : new SocketChannel[] {client, server}) {
                c.configureBlocking(false);
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            this.clientKey = client.register(selector, SelectionKey.OP_READ, this);
            this.serverKey = server.register(selector, SelectionKey.OP_READ, this);
        } catch (IOException e) {
            reset(client);
            server.close();
            throw e;
        }
    }

    void pump(SelectionKey key) {
        if (paused) {
            return; // selected in the same round it was paused
        }
        try {
            if (key.isReadable()) {
                if (key == clientKey) {
                    clientDone |= client.read(toServer) < 0;
                } else {
                    serverDone |= server.read(toClient) < 0;
                }
            }
            send(server, toServer);
            send(client, toClient);
            if ((clientDone && toServer.position() == 0) || (serverDone && toClient.position() == 0)) {
                close();
                return;
            }
            clientKey.interestOps(interest(clientDone, toServer, toClient));
            serverKey.interestOps(interest(serverDone, toClient, toServer));
        } catch (IOException e) {
            reset();
        }
    }

    /** No byte moves either way until {@link #resume()}: the selector is no longer asked about either side. */
    void pause() {
        paused = true;
        if (clientKey.isValid()) {
            clientKey.interestOps(0);
        }
        if (serverKey.isValid()) {
            serverKey.interestOps(0);
        }
    }

    /** Bytes move again, from where they stopped. */
    void resume() {
        paused = false;
        if (clientKey.isValid() && serverKey.isValid()) {
            clientKey.interestOps(interest(clientDone, toServer, toClient));
            serverKey.interestOps(interest(serverDone, toClient, toServer));
        }
    }

    private static int interest(boolean done, ByteBuffer inbound, ByteBuffer outbound) {
        int ops = 0;
        if (!done && inbound.hasRemaining()) {
            ops |= SelectionKey.OP_READ;
        }
        if (outbound.position() > 0) {
            ops |= SelectionKey.OP_WRITE;
        }
        return ops;
    }

    private static void send(SocketChannel to, ByteBuffer pending) throws IOException {
        if (pending.position() == 0) {
            return;
        }
        pending.flip();
        try {
            to.write(pending);
        } finally {
            pending.compact();
        }
    }

    /** Drops both connections the way a dead host does: the client sees "connection reset". */
    void reset() {
        reset(client);
        quietly(server);
        onClose.accept(this);
    }

    void close() {
        quietly(client);
        quietly(server);
        onClose.accept(this);
    }

    static void reset(SocketChannel channel) {
        try {
            channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        } catch (IOException ignored) {
            // already gone: closing it is all that is left
        }
        quietly(channel);
    }

    private static void quietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing a socket that failed: nothing to report
        }
    }
}
