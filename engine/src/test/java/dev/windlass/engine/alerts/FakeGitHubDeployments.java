package dev.windlass.engine.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GitHub's deployments API for one repository, as WireMock answers it: deployments and their statuses kept in memory,
 * listed newest first and filtered by {@code sha} and {@code environment} as GitHub does. It can lose the answer to a
 * create (the deployment is made, the caller gets a 502) and fail a status once, as GitHub's front sometimes does.
 */
public final class FakeGitHubDeployments implements ResponseDefinitionTransformerV2 {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern STATUSES = Pattern.compile("/repos/([^/]+/[^/?]+)/deployments/(\\d+)/statuses(\\?.*)?");
    private static final Pattern DEPLOYMENTS = Pattern.compile("/repos/([^/]+/[^/?]+)/deployments(\\?.*)?");

    /** One deployment, with its statuses oldest first. */
    public record Deployment(long id, String ref, String environment, JsonNode payload, List<String> statuses, String token) {}

    private final String repository;
    private final List<Deployment> deployments = new ArrayList<>();
    /** Creates whose answer is lost after the deployment is made. */
    public final AtomicInteger loseCreateAnswers = new AtomicInteger();
    /** Status posts answered 502 without being recorded. */
    public final AtomicInteger failStatusPosts = new AtomicInteger();
    public final AtomicInteger creates = new AtomicInteger();

    public FakeGitHubDeployments(String repository) { this.repository = repository; }

    @Override public String getName() { return "github-deployments"; }

    public synchronized List<Deployment> deployments() { return List.copyOf(deployments); }

    @Override
    public synchronized ResponseDefinition transform(ServeEvent event) {
        Request r = event.getRequest();
        String url = r.getUrl();
        String token = r.getHeader("Authorization");
        try {
            Matcher s = STATUSES.matcher(url);
            if (s.matches()) {
                if (!s.group(1).equals(repository)) return answer(404, "{\"message\":\"Not Found\"}");
                Deployment d = deployments.stream().filter(x -> x.id() == Long.parseLong(s.group(2))).findFirst().orElse(null);
                if (d == null) return answer(404, "{\"message\":\"Not Found\"}");
                if (r.getMethod().getName().equals("GET")) {
                    ArrayNode list = JSON.createArrayNode();
                    for (int i = d.statuses().size() - 1; i >= 0; i--) list.addObject().put("state", d.statuses().get(i));
                    return answer(200, list.toString());
                }
                if (failStatusPosts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) return answer(502, "");
                String state = JSON.readTree(r.getBodyAsString()).path("state").asText();
                d.statuses().add(state);
                return answer(201, JSON.createObjectNode().put("state", state).toString());
            }
            Matcher m = DEPLOYMENTS.matcher(url);
            if (!m.matches() || !m.group(1).equals(repository)) return answer(404, "{\"message\":\"Not Found\"}");
            if (r.getMethod().getName().equals("GET")) {
                String sha = r.queryParameter("sha").isPresent() ? r.queryParameter("sha").firstValue() : null;
                String env = r.queryParameter("environment").isPresent() ? r.queryParameter("environment").firstValue() : null;
                ArrayNode list = JSON.createArrayNode();
                for (int i = deployments.size() - 1; i >= 0; i--) {
                    Deployment d = deployments.get(i);
                    if ((sha == null || sha.equals(d.ref())) && (env == null || env.equals(d.environment()))) list.add(json(d));
                }
                return answer(200, list.toString());
            }
            JsonNode body = JSON.readTree(r.getBodyAsString());
            creates.incrementAndGet();
            Deployment d = new Deployment(deployments.size() + 1, body.path("ref").asText(), body.path("environment").asText(), body.path("payload"),
                    new ArrayList<>(), token);
            deployments.add(d);
            if (loseCreateAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) return answer(502, "");
            return answer(201, json(d).toString());
        } catch (Exception e) {
            return answer(500, "{\"message\":\"" + e.getClass().getSimpleName() + "\"}");
        }
    }

    private static ObjectNode json(Deployment d) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", d.id());
        n.put("sha", d.ref());
        n.put("ref", d.ref());
        n.put("environment", d.environment());
        n.set("payload", d.payload());
        return n;
    }

    private static ResponseDefinition answer(int status, String body) {
        return ResponseDefinitionBuilder.responseDefinition().withStatus(status).withHeader("Content-Type", "application/json").withBody(body).build();
    }
}
