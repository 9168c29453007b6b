package dev.windlass.engine.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook receiver as a user would write one: checks the signature with its own HMAC over the raw body and the
 * CloudEvents content type, answers 400 when either is wrong, and keeps every event it accepted. While {@link #hang} is
 * set it never answers (it reads the request and holds the exchange open).
 */
public final class Receiver implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final HttpServer server;
    final String key;
    public final List<JsonNode> accepted = new CopyOnWriteArrayList<>();
    public final List<String> refused = new CopyOnWriteArrayList<>();
    public final AtomicBoolean hang = new AtomicBoolean();
    private final List<HttpExchange> held = new CopyOnWriteArrayList<>();

    public Receiver(String key) throws IOException {
        this.key = key;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/hook", this::handle);
        server.start();
    }

    public URI address() { return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook"); }

    private void handle(HttpExchange x) throws IOException {
        byte[] body = x.getRequestBody().readAllBytes();
        if (hang.get()) {
            held.add(x);  // never answered: the sender's timeout ends it
            return;
        }
        String type = x.getRequestHeaders().getFirst("Content-Type");
        String signature = x.getRequestHeaders().getFirst("X-Windlass-Signature");
        String why = null;
        if (!"application/cloudevents+json".equals(type)) why = "content type " + type;
        else if (signature == null || !signature.startsWith("sha256=")) why = "no signature";
        else if (!MessageDigest.isEqual(signature.substring(7).getBytes(StandardCharsets.US_ASCII), hmac(body).getBytes(StandardCharsets.US_ASCII))) why = "bad signature";
        if (why != null) {
            refused.add(why);
            x.sendResponseHeaders(400, -1);
            x.close();
            return;
        }
        accepted.add(JSON.readTree(body));
        x.sendResponseHeaders(202, -1);
        x.close();
    }

    private String hmac(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public List<String> types() { return accepted.stream().map(n -> n.get("type").asText()).toList(); }

    @Override public void close() {
        held.forEach(HttpExchange::close);
        server.stop(0);
    }
}
