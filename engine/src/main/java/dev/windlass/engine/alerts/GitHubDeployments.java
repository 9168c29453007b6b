package dev.windlass.engine.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.windlass.engine.alerts.Sender.Outcome;
import dev.windlass.policy.alert.AlertEvent;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Tells a rollout to GitHub Deployments: one deployment per application and cluster, in the environment
 * {@code <app>/<cluster>}, on the config commit the rollout's revision was taken from; its statuses follow the waves
 * (WaveStarted {@code in_progress}, WaveCompleted {@code success}, WaveFailed {@code failure}, RolledBack {@code inactive}).
 *
 * <p>Nothing is kept on the engine's side: each send looks the deployment up (by commit and environment, and the revision
 * in its payload) before it creates one, and reads its newest status before it adds one. So a delivery tried again after
 * a lost answer, or one sent after a restart, makes no second deployment and repeats no status; a WaveCompleted whose
 * deployment is missing (made by hand away, or never made) makes it.
 */
final class GitHubDeployments {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** GitHub cuts a status's description at 140 characters. */
    private static final int DESCRIPTION_LIMIT = 140;

    private final java.util.function.Supplier<HttpClient> http;
    private final Duration timeout;
    private final Messages messages;

    GitHubDeployments(java.util.function.Supplier<HttpClient> http, Duration timeout, Messages messages) {
        this.http = http;
        this.timeout = timeout;
        this.messages = messages;
    }

    /** The state a deployment of each cluster the event names takes, or null when the event sets none. */
    static String state(AlertEvent e) {
        return switch (e.kind()) {
            case WaveStarted -> "in_progress";
            case WaveCompleted -> "success";
            case WaveFailed -> "failure";
            case RolledBack -> "inactive";
            default -> null;
        };
    }

    /** The environment of an application on a cluster. */
    static String environment(String app, String cluster) { return app + "/" + cluster; }

    Outcome send(Endpoint to, Delivery d) {
        AlertEvent e = d.event();
        String state = state(e);
        String commit = e.rolloutSource().isEmpty() ? e.source() : e.rolloutSource();
        if (state == null) return new Outcome.Refused("sets no deployment status");
        if (commit.isEmpty() || e.app().isEmpty()) return new Outcome.Refused("names no config commit or application");
        Api api = new Api(to);
        try {
            for (String cluster : e.clusters()) {
                String env = environment(e.app(), cluster);
                Long id = api.find(commit, env, e.revision());
                if (id == null) {
                    if (state.equals("inactive")) continue;  // nothing was deployed there to set back
                    id = api.create(commit, env, e);
                }
                if (state.equals(api.newestState(id))) continue;  // this status was set by an earlier try
                api.status(id, state, e);
            }
            return new Outcome.Sent();
        } catch (Stop s) {
            return s.outcome;
        }
    }

    /** Ends a send: a call that failed. */
    private static final class Stop extends Exception {
        final Outcome outcome;

        Stop(Outcome outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }
    }

    /** The calls on one repository. */
    private final class Api {
        private final Endpoint to;
        private final String repo;

        Api(Endpoint to) {
            this.to = to;
            this.repo = to.address().toString().replaceAll("/+$", "") + "/repos/" + to.provider().repository();
        }

        Long find(String commit, String env, String revision) throws Stop {
            JsonNode list = call("GET", repo + "/deployments?sha=" + enc(commit) + "&environment=" + enc(env) + "&per_page=100", null);
            for (JsonNode dep : list) {
                if (revision.equals(dep.path("payload").path("revision").asText())) return dep.path("id").asLong();
            }
            return null;
        }

        long create(String commit, String env, AlertEvent e) throws Stop {
            ObjectNode body = JSON.createObjectNode();
            body.put("ref", commit);
            body.put("environment", env);
            body.put("auto_merge", false);
            body.putArray("required_contexts");
            body.put("transient_environment", false);
            body.put("production_environment", false);
            body.put("description", cut("windlass: " + e.app() + " " + e.revision() + " (wave " + e.wave() + ")"));
            ObjectNode payload = body.putObject("payload");
            payload.put("application", e.app());
            payload.put("revision", e.revision());
            payload.put("wave", e.wave());
            JsonNode made = call("POST", repo + "/deployments", body);
            if (!made.has("id")) throw new Stop(new Outcome.Refused("GitHub made no deployment: " + cut(made.path("message").asText())));
            return made.get("id").asLong();
        }

        String newestState(long id) throws Stop {
            JsonNode list = call("GET", repo + "/deployments/" + id + "/statuses?per_page=1", null);
            return list.isArray() && !list.isEmpty() ? list.get(0).path("state").asText() : null;
        }

        void status(long id, String state, AlertEvent e) throws Stop {
            ObjectNode body = JSON.createObjectNode();
            body.put("state", state);
            body.put("description", cut(Messages.title(e)));
            String link = messages.link(e);
            if (link != null) body.put("log_url", link);
            call("POST", repo + "/deployments/" + id + "/statuses", body);
        }

        private JsonNode call(String method, String address, JsonNode body) throws Stop {
            HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(address)).timeout(timeout)
                    .header("Accept", "application/vnd.github+json").header("X-GitHub-Api-Version", "2022-11-28")
                    .header("User-Agent", "windlass").header("Authorization", "Bearer " + to.token());
            if (body == null) {
                r.GET();
            } else {
                r.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
            }
            HttpResponse<String> response;
            try {
                response = http.get().send(r.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException x) {
                throw new Stop(new Outcome.TryAgain("no answer: " + x.getClass().getSimpleName()));
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new Stop(new Outcome.TryAgain("interrupted"));
            }
            int status = response.statusCode();
            String what = method + " " + URI.create(address).getPath();
            boolean rateLimited = status == 403 && "0".equals(response.headers().firstValue("x-ratelimit-remaining").orElse(null));
            if (status == 429 || status == 408 || status >= 500 || rateLimited) throw new Stop(new Outcome.TryAgain(what + " answered " + status));
            if (status < 200 || status >= 300) throw new Stop(new Outcome.Refused(what + " answered " + status));
            try {
                return response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
            } catch (IOException x) {
                throw new Stop(new Outcome.TryAgain(what + " answered with no JSON"));
            }
        }
    }

    private static String enc(String s) { return URLEncoder.encode(s, StandardCharsets.UTF_8); }

    private static String cut(String s) { return s.length() <= DESCRIPTION_LIMIT ? s : s.substring(0, DESCRIPTION_LIMIT - 1) + "…"; }
}
