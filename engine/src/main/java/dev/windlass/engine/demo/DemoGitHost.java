package dev.windlass.engine.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The demo's stand-in for GitHub, on 127.0.0.1: answers the two calls the engine makes to offer a revert (list the pull
 * requests from a branch, open one) for the repository {@code demo/fleet}, checks the token as GitHub would, and keeps the
 * pull requests it opened for the story. Nothing else of GitHub's API is there.
 */
final class DemoGitHost implements AutoCloseable {
    static final String REPOSITORY = "demo/fleet";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A pull request as opened. */
    record Pull(int number, String title, String head, String base) {}

    private final HttpServer server;
    private final String token;
    private final List<Pull> pulls = new CopyOnWriteArrayList<>();
    private int told;

    DemoGitHost(String token) throws IOException {
        this.token = token;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/repos/" + REPOSITORY + "/pulls", this::handle);
        server.start();
    }

    /** The API root, as a Provider's address. */
    URI address() { return URI.create("http://127.0.0.1:" + server.getAddress().getPort()); }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String auth = x.getRequestHeaders().getFirst("Authorization");
            byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.US_ASCII);
            if (auth == null || !MessageDigest.isEqual(auth.getBytes(StandardCharsets.US_ASCII), expected)) {
                x.sendResponseHeaders(401, -1);
                return;
            }
            if (!x.getRequestURI().getPath().equals("/repos/" + REPOSITORY + "/pulls")) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            switch (x.getRequestMethod()) {
                case "GET" -> {
                    String query = x.getRequestURI().getQuery() == null ? "" : x.getRequestURI().getQuery();
                    ArrayNode list = JSON.createArrayNode();
                    for (Pull p : pulls) if (query.contains("head=" + REPOSITORY.split("/")[0] + ":" + p.head())) list.add(json(p));
                    reply(x, 200, list);
                }
                case "POST" -> {
                    JsonNode body = JSON.readTree(x.getRequestBody());
                    Pull p;
                    synchronized (this) {
                        p = new Pull(pulls.size() + 1, body.path("title").asText(), body.path("head").asText(), body.path("base").asText());
                        pulls.add(p);
                    }
                    reply(x, 201, json(p));
                }
                default -> x.sendResponseHeaders(405, -1);
            }
        }
    }

    private ObjectNode json(Pull p) {
        ObjectNode n = JSON.createObjectNode();
        n.put("number", p.number());
        n.put("title", p.title());
        n.put("html_url", address() + "/" + REPOSITORY + "/pull/" + p.number());
        n.putObject("head").put("ref", p.head());
        n.putObject("base").put("ref", p.base());
        return n;
    }

    private static void reply(HttpExchange x, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        x.getResponseHeaders().set("Content-Type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        x.getResponseBody().write(bytes);
    }

    /** The pull requests opened since the last call. */
    synchronized List<Pull> news() {
        List<Pull> out = List.copyOf(pulls.subList(told, pulls.size()));
        told += out.size();
        return out;
    }

    @Override public void close() { server.stop(0); }
}
