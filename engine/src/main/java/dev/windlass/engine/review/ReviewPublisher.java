package dev.windlass.engine.review;

import dev.windlass.githost.CommitState;
import dev.windlass.githost.GitHost;
import dev.windlass.githost.HostConfig;
import dev.windlass.githost.HostKind;
import dev.windlass.githost.HostOutcome;
import dev.windlass.policy.model.ReviewSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Posts a review on the Git host: one comment per pull request (found again by its hidden marker) and the commit
 * status {@value #CONTEXT} on the head. Host trouble is reported in the outcome, never thrown: reconciling goes on.
 */
public final class ReviewPublisher {
    public static final String CONTEXT = "windlass/plan";
    /** Comments above this are cut; the host's limit is 65536 characters. */
    static final int COMMENT_MAX = 60_000;
    private static final Pattern OWNER_NAME = Pattern.compile(".*[/:]([^/:]+)/([^/]+?)(\\.git)?/?$");

    private final GitHost host;

    ReviewPublisher(GitHost host) { this.host = host; }

    /** The publisher the settings ask for, or null when none is configured or it cannot be (logged). */
    static ReviewPublisher configured(ReviewSettings.Host settings, String remoteUrl, Function<String, String> env) {
        try {
            return from(settings, remoteUrl, env);
        } catch (IllegalArgumentException e) {
            org.slf4j.LoggerFactory.getLogger(ReviewPublisher.class).warn("reviews are not published: {}", e.getMessage());
            return null;
        }
    }

    /** The publisher the settings ask for, or null when no host is configured. */
    public static ReviewPublisher from(ReviewSettings.Host settings, String remoteUrl, Function<String, String> env) {
        if (settings == null) return null;
        String repository = settings.repository() != null ? settings.repository() : repositoryOf(remoteUrl);
        if (repository == null) {
            throw new IllegalArgumentException("Settings.spec.review.host.repository is not set and cannot be read from " + remoteUrl
                    + "; set it to owner/name");
        }
        return new ReviewPublisher(GitHost.of(new HostConfig(HostKind.valueOf(settings.type()), URI.create(settings.apiUrl()), repository,
                token(settings, env))));
    }

    /** What the host said, as one line for the review record, and when to try again if it should be tried again. */
    public record Publication(long commentId, String text, String retryAfter) {}

    Publication publish(ReviewRecord record, String marker, String comment, boolean failing, String description) {
        HostOutcome c = host.upsertComment(record.pull(), marker, fit(comment, record.ref()), record.commentId());
        HostOutcome s = host.setStatus(record.head(), failing ? CommitState.failure : CommitState.success, CONTEXT, description, null);
        long id = c instanceof HostOutcome.Done d ? d.id() : record.commentId();
        String retry = null;
        for (HostOutcome o : new HostOutcome[] {c, s}) {
            if (o instanceof HostOutcome.Deferred d) retry = d.until().toString();
            else if (o instanceof HostOutcome.Failed && retry == null) retry = "";
        }
        return new Publication(id, "comment: " + text(c) + "; status " + CONTEXT + ": " + text(s), retry);
    }

    HostOutcome announce(int pull, String body) {
        return host.addComment(pull, body);
    }

    static String text(HostOutcome o) {
        if (o instanceof HostOutcome.Done d) return d.id() > 0 ? d.what() + " " + d.id() : d.what();
        if (o instanceof HostOutcome.Deferred d) return "deferred: " + d.reason();
        return "failed: " + ((HostOutcome.Failed) o).message();
    }

    /** Cuts a comment that is too long at a line, closing an open code fence, and points to the full plan. */
    static String fit(String comment, String ref) {
        if (comment.length() <= COMMENT_MAX) return comment;
        String cut = comment.substring(0, comment.lastIndexOf('\n', COMMENT_MAX) + 1);
        long fences = cut.lines().filter(l -> l.startsWith("```")).count();
        return cut + (fences % 2 == 1 ? "```\n" : "") + "\n… the plan is longer than a comment allows; the whole plan is `"
                + ReviewRecord.planPath(ref) + "` on the status branch.\n";
    }

    static String repositoryOf(String url) {
        Matcher m = OWNER_NAME.matcher(url);
        return m.matches() ? m.group(1) + "/" + m.group(2) : null;
    }

    private static String token(ReviewSettings.Host settings, Function<String, String> env) {
        if (settings.tokenFile() != null) {
            try {
                return Files.readString(Path.of(settings.tokenFile())).strip();
            } catch (IOException e) {
                return null;
            }
        }
        return env.apply(settings.tokenEnv());
    }
}
