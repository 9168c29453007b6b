package dev.windlass.sandbox;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

/**
 * Keeps the mock server's event loop free when a watch goes away.
 *
 * <p>The stock watch stream sends its events from a thread of its own and waits for each write, which the event loop
 * performs. When the connection closes, the stream shuts that thread down and waits for it, and it does so on the
 * event loop. A watch that closes while events are still queued therefore blocks the loop on itself until the write
 * gives up after 30 seconds: every request to that cluster stalls, and shutting the server down fails. Handing the
 * close to a short-lived thread of its own lets the queued writes finish (or fail on the closed connection) first.
 *
 * <p>The stock close takes the stream out of the server's set of watchers only after its sender thread has stopped.
 * Run off the loop, that leaves a window in which a write to the cluster still hands the stream an event, its sender
 * refuses it, and the write is never answered. So the stream is taken out of that set at once, on the loop, before
 * the rest of the close is handed off.
 */
public final class WatchCleanUp extends WebSocketListener {

    private final WebSocketListener stream;

    private WatchCleanUp(WebSocketListener stream) {
        this.stream = stream;
    }

    /** The same response, with a watch stream's close handled off the event loop; other responses as they are. */
    public static MockResponse offTheEventLoop(MockResponse response) {
        WebSocketListener stream = response.getWebSocketListener();
        if (stream == null || stream instanceof WatchCleanUp) return response;
        return response.withWebSocketUpgrade(new WatchCleanUp(stream));
    }

    /** A dispatcher that answers as {@code inner} does, with every watch stream's close handled off the event loop. */
    public static Dispatcher around(Dispatcher inner) {
        return new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest request) {
                return offTheEventLoop(inner.dispatch(request));
            }

            @Override public void shutdown() { inner.shutdown(); }

            @Override public void releaseResources() { inner.releaseResources(); }
        };
    }

    @Override public void onBeforeAccept(WebSocket socket, Response response) { stream.onBeforeAccept(socket, response); }

    @Override public void onOpen(WebSocket socket, Response response) { stream.onOpen(socket, response); }

    @Override public void onMessage(WebSocket socket, String text) { stream.onMessage(socket, text); }

    @Override public void onMessage(WebSocket socket, ByteString bytes) { stream.onMessage(socket, bytes); }

    @Override public void onMessage(WebSocket socket, byte[] bytes) { stream.onMessage(socket, bytes); }

    @Override public void onClosing(WebSocket socket, int code, String reason) { stream.onClosing(socket, code, reason); }

    @Override public void onClosed(WebSocket socket, int code, String reason) {
        stopDelivering();
        offLoop(() -> stream.onClosed(socket, code, reason));
    }

    @Override public void onFailure(WebSocket socket, Throwable failure, Response response) {
        stopDelivering();
        offLoop(() -> stream.onFailure(socket, failure, response));
    }

    /** The server's set of watchers a stream was registered in; the stock stream keeps it in a private field. */
    private static final java.lang.reflect.Field WATCHERS = watchersField();

    private static java.lang.reflect.Field watchersField() {
        try {
            java.lang.reflect.Field f = Class.forName("io.fabric8.kubernetes.client.server.mock.WatchEventsListener")
                    .getDeclaredField("watchEventListenerList");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;   // another version of the mock server: its own close then decides when the stream leaves
        }
    }

    private void stopDelivering() {
        if (WATCHERS == null || !WATCHERS.getDeclaringClass().isInstance(stream)) return;
        try {
            if (WATCHERS.get(stream) instanceof java.util.Set<?> watchers) watchers.remove(stream);
        } catch (IllegalAccessException e) {
            // as above
        }
    }

    private static void offLoop(Runnable cleanUp) {
        Thread thread = new Thread(cleanUp, "sandbox-watch-clean-up");
        thread.setDaemon(true);
        thread.start();
    }
}
