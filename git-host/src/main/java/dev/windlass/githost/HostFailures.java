package dev.windlass.githost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.windlass.githost.HostOutcome.Failed;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** The messages of failed calls: each says what is wrong and how to fix it. */
final class HostFailures {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BODY_EXCERPT = 200;

    private HostFailures() {}

    /** A final (non-2xx, non-5xx, not rate-limited) answer. */
    static Failed answered(int status, String method, URI uri, String body, String location, boolean hasToken) {
        String request = method + " " + uri;
        return switch (status) {
            case 401 -> new Failed(401, hasToken
                    ? "the Git host rejected the token (401): check the review token"
                            + " (env WINDLASS_REVIEW_TOKEN or tokenFile)"
                    : "the Git host asks for a token (401) and none is configured: set the review token"
                            + " (env WINDLASS_REVIEW_TOKEN or tokenFile)");
            case 403 -> new Failed(403, "the Git host refused " + request + " (403): " + (hasToken
                    ? "the token lacks permission: it needs write access to pull request comments and commit statuses"
                    : "no review token is configured; set one with write access to pull request comments"
                            + " and commit statuses"));
            case 404 -> new Failed(404, "the Git host answered 404 to " + request + ", not found: check review.host"
                    + " apiUrl and repository, the pull request number or commit, and that the token can see the"
                    + " repository");
            case 422 -> new Failed(422, "the Git host refused the request (422): " + unprocessable(body));
            default -> {
                if (status >= 300 && status < 400) {
                    yield new Failed(status, "the Git host redirected " + request + " (" + status + ") to "
                            + (location == null ? "elsewhere" : location) + ": the repository may have moved;"
                            + " point review.host apiUrl and repository at where it is now");
                }
                yield new Failed(status, "the Git host answered " + status + " to " + request + ": " + excerpt(body));
            }
        };
    }

    /** Tried {@code tries} times and every try had a 5xx answer or none. */
    static Failed gaveUp(Transient last, int tries, URI base) {
        if (last.status == 0) {
            return new Failed(0, "could not reach the Git host at " + origin(base) + " (" + last.cause + "), "
                    + "tried " + times(tries) + ": check review.host apiUrl and that the host is reachable;"
                    + " Windlass tries again on the next pass");
        }
        return new Failed(last.status, "the Git host answered " + last.status + " " + times(tries) + " to "
                + last.method + " " + last.path + "; the host may be down, Windlass tries again on the next pass");
    }

    static Failed interrupted(String method, String path) {
        return new Failed(0, "interrupted while calling the Git host (" + method + " " + path
                + "); Windlass tries again on the next pass");
    }

    /** A 2xx answer that is not what the API gives: usually an apiUrl that points at the web pages. */
    static Failed unexpected(int status, String method, URI uri, String expected) {
        return new Failed(status, "the Git host answered " + method + " " + uri + " with " + status + " but not with "
                + expected + ": check that review.host apiUrl is the API root (https://api.github.com, or ending"
                + " in /api/v1 for Gitea)");
    }

    private static String unprocessable(String body) {
        JsonNode json;
        try {
            json = JSON.readTree(body == null ? "" : body);
        } catch (IOException e) {
            return excerpt(body);
        }
        if (json == null || !json.isObject()) return excerpt(body);
        List<String> parts = new ArrayList<>();
        String message = json.path("message").asText("").strip();
        if (!message.isEmpty()) parts.add(message);
        for (JsonNode error : json.path("errors")) {
            String text = error.isTextual() ? error.asText()
                    : error.hasNonNull("message") ? error.get("message").asText()
                    : error.hasNonNull("code") ? error.get("code").asText()
                            + (error.hasNonNull("field") ? " (" + error.get("field").asText() + ")" : "")
                    : "";
            if (!text.isBlank()) parts.add(text.strip());
        }
        return parts.isEmpty() ? excerpt(body) : String.join("; ", parts);
    }

    static String excerpt(String body) {
        if (body == null || body.isBlank()) return "(no body)";
        String text = body.strip();
        if (text.length() <= BODY_EXCERPT) return text;
        int end = Character.isHighSurrogate(text.charAt(BODY_EXCERPT - 1)) ? BODY_EXCERPT - 1 : BODY_EXCERPT;
        return text.substring(0, end) + "…";
    }

    private static String origin(URI base) {
        return base.getScheme() + "://" + base.getHost() + (base.getPort() == -1 ? "" : ":" + base.getPort());
    }

    private static String times(int tries) {
        return switch (tries) {
            case 1 -> "once";
            case 2 -> "twice";
            case 3 -> "three times";
            case 4 -> "four times";
            case 5 -> "five times";
            default -> tries + " times";
        };
    }
}
