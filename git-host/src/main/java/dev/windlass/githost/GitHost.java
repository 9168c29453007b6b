package dev.windlass.githost;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.windlass.githost.HostOutcome.Done;
import dev.windlass.githost.HostOutcome.Failed;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The review's voice on the Git host: one pull request comment per review, found again by a hidden marker and
 * edited rather than duplicated, and a commit status on the pull request's head.
 *
 * <p>Every method returns a {@link HostOutcome}; HTTP-level problems (refusals, 5xx answers, no answer, rate
 * limits) never throw. Only arguments that are wrong in the caller's code throw {@link IllegalArgumentException}.
 */
public final class GitHost {

    private static final Logger log = LoggerFactory.getLogger(GitHost.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DEFAULT_ATTEMPTS = 3;
    private static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(10);
    private static final int PAGE_SIZE = 100;
    /** 10,000 comments: past that, a pull request is not one Windlass reviews sensibly anyway. */
    private static final int MAX_PAGES = 100;
    private static final int DESCRIPTION_LIMIT = 140;
    /** GitHub refuses longer titles. */
    private static final int TITLE_LIMIT = 256;
    private static final Pattern SHA = Pattern.compile("[0-9a-fA-F]{4,64}");

    /** The body of a public method: may stop early with an outcome. */
    @FunctionalInterface
    private interface Call {
        HostOutcome run() throws HostStop;
    }

    private final HostConfig config;
    private final HostCalls calls;
    private final String repo;

    GitHost(HostConfig config, HttpClient http, Sleeper sleeper, Clock clock, int attempts, Duration maxWait) {
        this.config = config;
        this.calls = new HostCalls(config, http, sleeper, clock, attempts, maxWait);
        this.repo = "/repos/" + config.repository();
    }

    /** Over a real HTTP client, sleeping for real between tries, on the system clock. */
    public static GitHost of(HostConfig config) {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new GitHost(config, http, duration -> Thread.sleep(duration.toMillis()), Clock.systemUTC(),
                DEFAULT_ATTEMPTS, DEFAULT_MAX_WAIT);
    }

    /**
     * Creates the comment on pull request {@code pull} that contains {@code marker}, or edits it if there is one.
     * {@code knownCommentId} (0 = unknown) is edited directly; if it is gone (404) the comments are listed. When
     * the listed comment already reads {@code body}, nothing is sent: {@code Done("unchanged", id)}.
     *
     * @param body must contain {@code marker}, or the next call could not find this comment again
     */
    public HostOutcome upsertComment(int pull, String marker, String body, long knownCommentId) {
        checkPull(pull);
        if (marker == null || marker.isBlank()) throw new IllegalArgumentException("the comment marker is empty");
        if (body == null || !body.contains(marker)) {
            throw new IllegalArgumentException("the comment body does not contain its marker " + marker);
        }
        return finish(() -> {
            if (knownCommentId > 0) {
                try {
                    calls.send("PATCH", commentPath(knownCommentId), bodyJson(body));
                    return done("edited", knownCommentId, pull);
                } catch (HostStop stop) {
                    if (!stop.notFound()) throw stop;
                    log.info("Comment {} on pull request {} of {} is gone: looking for the review comment",
                            knownCommentId, pull, config.repository());
                }
            }
            // The create is not tried again on its own: a 5xx answer may come after the comment was made, so
            // each try lists again first and finds it rather than making a second one.
            return calls.retrying(() -> {
                Optional<Comment> found = find(pull, marker);
                if (found.isPresent()) {
                    Comment comment = found.get();
                    if (comment.body().equals(body)) return done("unchanged", comment.id(), pull);
                    calls.send("PATCH", commentPath(comment.id()), bodyJson(body));
                    return done("edited", comment.id(), pull);
                }
                Reply reply = calls.once("POST", commentsPath(pull), bodyJson(body));
                return done("created", createdId(reply, commentsPath(pull)), pull);
            });
        });
    }

    /** Always a new comment, e.g. to say that an applied plan diverged from the reviewed one. */
    public HostOutcome addComment(int pull, String body) {
        checkPull(pull);
        if (body == null || body.isBlank()) throw new IllegalArgumentException("the comment body is empty");
        return finish(() -> {
            Reply reply = calls.send("POST", commentsPath(pull), bodyJson(body));
            return done("created", createdId(reply, commentsPath(pull)), pull);
        });
    }

    /**
     * Sets the status {@code context} (e.g. {@code windlass/plan}) of commit {@code sha}. {@code description} is
     * cut to 140 characters; {@code description} and {@code targetUrl} may be null (then left out).
     */
    public HostOutcome setStatus(String sha, CommitState state, String context, String description,
            String targetUrl) {
        if (sha == null || !SHA.matcher(sha).matches()) {
            throw new IllegalArgumentException("not a commit SHA: " + sha);
        }
        if (state == null) throw new IllegalArgumentException("the commit state is missing");
        if (context == null || context.isBlank()) throw new IllegalArgumentException("the status context is empty");
        ObjectNode json = JSON.createObjectNode();
        json.put("state", state.name());
        json.put("context", context);
        if (description != null) json.put("description", cut(description, DESCRIPTION_LIMIT));
        if (targetUrl != null) json.put("target_url", targetUrl);
        return finish(() -> {
            calls.send("POST", repo + "/statuses/" + sha, write(json));
            log.info("Status {} {} on {} of {}", context, state, sha, config.repository());
            return new Done("status", 0);
        });
    }

    /**
     * Opens a pull request from branch {@code head} into {@code base}, unless one from {@code head} exists already (open or
     * closed): then that one is {@code found}, never a second. As for comments, the create is not tried again on its own:
     * each try lists first, so a 5xx answer that came after the pull request was made finds it rather than making another.
     */
    public HostOutcome openPullRequest(String head, String base, String title, String body) {
        if (head == null || head.isBlank() || base == null || base.isBlank()) {
            throw new IllegalArgumentException("a pull request needs a head and a base branch");
        }
        if (title == null || title.isBlank()) throw new IllegalArgumentException("the pull request title is empty");
        ObjectNode json = JSON.createObjectNode();
        json.put("title", cut(title, TITLE_LIMIT));
        json.put("head", head);
        json.put("base", base);
        json.put("body", body == null ? "" : body);
        return finish(() -> calls.retrying(() -> {
            Optional<HostOutcome.PullRequest> found = pullFrom(head);
            if (found.isPresent()) return found.get();
            Reply reply = calls.once("POST", repo + "/pulls", write(json));
            JsonNode created = parse(reply.body());
            if (created == null || !created.path("number").isIntegralNumber() || created.get("number").asLong() <= 0) {
                throw new HostStop(HostFailures.unexpected(reply.status(), "POST", calls.uri(repo + "/pulls"), "the new pull request"));
            }
            log.info("Pull request #{} of {} opened from {} into {}", created.get("number").asLong(), config.repository(), head, base);
            return new HostOutcome.PullRequest("created", created.get("number").asLong(), created.path("html_url").asText(""));
        }));
    }

    /** The pull request from branch {@code head}, in any state: on GitHub asked by head, on Gitea among the newest listed. */
    private Optional<HostOutcome.PullRequest> pullFrom(String head) throws HostStop {
        String owner = config.repository().substring(0, config.repository().indexOf('/'));
        String path = config.kind() == HostKind.github
                ? repo + "/pulls?state=all&per_page=" + PAGE_SIZE + "&head=" + java.net.URLEncoder.encode(owner + ":" + head, java.nio.charset.StandardCharsets.UTF_8)
                : repo + "/pulls?state=all&limit=50";
        Reply reply = calls.send("GET", path, null);
        JsonNode list = parse(reply.body());
        if (list == null || !list.isArray()) {
            throw new HostStop(HostFailures.unexpected(reply.status(), "GET", calls.uri(path), "a list of pull requests"));
        }
        for (JsonNode pull : list) {
            if (head.equals(pull.path("head").path("ref").asText()) && pull.path("number").isIntegralNumber()) {
                return Optional.of(new HostOutcome.PullRequest("found", pull.get("number").asLong(), pull.path("html_url").asText("")));
            }
        }
        return Optional.empty();
    }

    /** The first comment that contains the marker, reading page after page on GitHub. */
    private Optional<Comment> find(int pull, String marker) throws HostStop {
        boolean paged = config.kind() == HostKind.github;
        for (int page = 1; page <= MAX_PAGES; page++) {
            String path = paged ? commentsPath(pull) + "?per_page=" + PAGE_SIZE + "&page=" + page : commentsPath(pull);
            List<Comment> comments = comments(calls.send("GET", path, null), path);
            Optional<Comment> found = comments.stream().filter(comment -> comment.contains(marker)).findFirst();
            if (found.isPresent() || !paged || comments.size() < PAGE_SIZE) return found;
        }
        log.warn("Pull request {} of {} has more than {} comments: not looking further for the review comment",
                pull, config.repository(), MAX_PAGES * PAGE_SIZE);
        return Optional.empty();
    }

    private List<Comment> comments(Reply reply, String path) throws HostStop {
        JsonNode list = parse(reply.body());
        if (list == null || !list.isArray()) {
            throw new HostStop(HostFailures.unexpected(reply.status(), "GET", calls.uri(path), "a list of comments"));
        }
        List<Comment> comments = new ArrayList<>();
        for (JsonNode item : list) {
            if (!item.path("id").isIntegralNumber()) {
                throw new HostStop(HostFailures.unexpected(reply.status(), "GET", calls.uri(path), "a list of comments"));
            }
            comments.add(new Comment(item.get("id").asLong(), item.path("body").asText("")));
        }
        return comments;
    }

    private long createdId(Reply reply, String path) throws HostStop {
        JsonNode created = parse(reply.body());
        if (created == null || !created.path("id").isIntegralNumber() || created.get("id").asLong() <= 0) {
            throw new HostStop(HostFailures.unexpected(reply.status(), "POST", calls.uri(path), "the new comment"));
        }
        return created.get("id").asLong();
    }

    private Done done(String what, long id, int pull) {
        log.info("Review comment {} on pull request {} of {}: {}", id, pull, config.repository(), what);
        return new Done(what, id);
    }

    /** Runs a call, turning an early stop into its outcome; no message ever carries the token. */
    private HostOutcome finish(Call call) {
        HostOutcome outcome;
        try {
            outcome = call.run();
        } catch (HostStop stop) {
            outcome = stop.outcome();
        }
        if (outcome instanceof Failed failed && config.hasToken() && failed.message().contains(config.token())) {
            outcome = new Failed(failed.httpStatus(), failed.message().replace(config.token(), "(token)"));
        }
        if (outcome instanceof Failed failed) {
            log.debug("The Git host call for {} failed: {}", config.repository(), failed.message());
        }
        return outcome;
    }

    private String commentsPath(int pull) {
        return repo + "/issues/" + pull + "/comments";
    }

    private String commentPath(long id) {
        return repo + "/issues/comments/" + id;
    }

    private static void checkPull(int pull) {
        if (pull <= 0) throw new IllegalArgumentException("not a pull request number: " + pull);
    }

    private static String bodyJson(String body) {
        ObjectNode json = JSON.createObjectNode();
        json.put("body", body);
        return write(json);
    }

    private static String write(JsonNode json) {
        try {
            return JSON.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode parse(String body) {
        try {
            return body == null ? null : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** At most {@code limit} characters, ending in an ellipsis when cut, never splitting a surrogate pair. */
    static String cut(String text, int limit) {
        if (text.codePointCount(0, text.length()) <= limit) return text;
        return text.substring(0, text.offsetByCodePoints(0, limit - 1)) + "…";
    }
}
