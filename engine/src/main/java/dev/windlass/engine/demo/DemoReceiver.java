package dev.windlass.engine.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.windlass.engine.alerts.Sender;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The demo's webhook receiver, on 127.0.0.1 (the demo runs the engine with --alerts-allow-private-addresses): accepts
 * CloudEvents signed with its key, as a team's receiver would, and keeps one line per event for the story.
 */
final class DemoReceiver implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final String key;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private int told;

    DemoReceiver(String key) throws IOException {
        this.key = key;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/alerts", this::handle);
        server.start();
    }

    URI address() { return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/alerts"); }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String signature = x.getRequestHeaders().getFirst(Sender.SIGNATURE_HEADER);
            String expected = "sha256=" + Sender.hmac(key, body);
            if (signature == null || !MessageDigest.isEqual(signature.getBytes(StandardCharsets.US_ASCII), expected.getBytes(StandardCharsets.US_ASCII))) {
                x.sendResponseHeaders(401, -1);
                return;
            }
            JsonNode data = JSON.readTree(body).path("data");
            lines.add(data.path("title").asText() + (data.path("detail").asText().isEmpty() ? "" : " (" + data.path("detail").asText() + ")"));
            x.sendResponseHeaders(202, -1);
        }
    }

    /** The lines received since the last call. */
    synchronized List<String> news() {
        List<String> out = List.copyOf(lines.subList(told, lines.size()));
        told += out.size();
        return out;
    }

    @Override public void close() { server.stop(0); }
}
