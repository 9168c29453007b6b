package dev.windlass.engine.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /healthz} (liveness: the pass loop moves) and {@code GET /readyz} (readiness: a pass succeeded recently),
 * 200 or 503 with the reason; {@code GET /metrics} in the Prometheus text format;
 * {@code POST /webhook} takes a push payload and
 * asks for a pass when it is for the config branch. Pushes to any other branch (the status branch
 * included) are acknowledged and ignored. Every other path goes to the dashboard, when there is one.
 */
public final class EngineHttp implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 5 * 1024 * 1024;

    private final Server server;

    public EngineHttp(InetSocketAddress address, String branch, String secret, Runnable reconcileSoon, Supplier<ProbeAnswer> live,
                      Supplier<ProbeAnswer> ready, Supplier<String> metrics) {
        this(address, branch, secret, reconcileSoon, live, ready, metrics, null);
    }

    /** @param pages answers every other path (the dashboard); null: those are 404 */
    public EngineHttp(InetSocketAddress address, String branch, String secret, Runnable reconcileSoon, Supplier<ProbeAnswer> live,
                      Supplier<ProbeAnswer> ready, Supplier<String> metrics, Handler pages) {
        server = new Server(address);
        if (pages != null) {
            pages.setServer(server);
            server.addBean(pages);  // started and stopped with the server
        }
        server.setHandler(new Handler.Abstract() {
            @Override public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                if (path.equals("/healthz") && request.getMethod().equals("GET")) {
                    ProbeAnswer a = live.get();
                    return reply(response, callback, a.status(), a.text());
                }
                if (path.equals("/readyz") && request.getMethod().equals("GET")) {
                    ProbeAnswer a = ready.get();
                    return reply(response, callback, a.status(), a.text());
                }
                if (path.equals("/metrics") && request.getMethod().equals("GET")) {
                    return reply(response, callback, 200, metrics.get());
                }
                if (path.equals("/webhook") && request.getMethod().equals("POST")) {
                    return webhook(request, response, callback, branch, secret, reconcileSoon);
                }
                if (pages != null) return pages.handle(request, response, callback);
                return reply(response, callback, 404, "not found: " + path);
            }
        });
    }

    private static boolean webhook(Request request, Response response, Callback callback, String branch, String secret,
                                   Runnable reconcileSoon) throws IOException {
        byte[] body = readBody(request);
        if (body == null) return reply(response, callback, 413, "payload too large");
        if (secret != null && !secret.isEmpty()) {
            String sig = request.getHeaders().get("X-Hub-Signature-256");
            if (sig == null) sig = request.getHeaders().get("X-Gitea-Signature");
            if (!WebhookSignature.verify(secret, body, sig)) return reply(response, callback, 401, "signature missing or wrong");
        }
        if ("ping".equals(request.getHeaders().get("X-GitHub-Event"))) return reply(response, callback, 200, "pong");
        JsonNode payload;
        try {
            payload = JSON.readTree(body);
        } catch (IOException e) {
            return reply(response, callback, 400, "payload is not JSON");
        }
        String ref = payload == null ? null : payload.path("ref").asText(null);
        if (ref == null) return reply(response, callback, 400, "payload has no 'ref'; send a push event");
        if (!ref.equals("refs/heads/" + branch)) return reply(response, callback, 200, "ignored: " + ref + " is not the config branch");
        reconcileSoon.run();
        return reply(response, callback, 202, "reconcile queued for " + ref);
    }

    private static byte[] readBody(Request request) throws IOException {
        var in = Content.Source.asInputStream(request);
        byte[] body = in.readNBytes(MAX_BODY + 1);
        return body.length > MAX_BODY ? null : body;
    }

    private static boolean reply(Response response, Callback callback, int status, String text) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.write(true, ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    public void start() throws Exception { server.start(); }

    public int port() { return ((org.eclipse.jetty.server.ServerConnector) server.getConnectors()[0]).getLocalPort(); }

    @Override public void close() throws Exception { server.stop(); }
}
