package dev.windlass.engine.alerts;

import dev.windlass.githost.CommitState;
import dev.windlass.githost.GitHost;
import dev.windlass.githost.HostConfig;
import dev.windlass.githost.HostKind;
import dev.windlass.githost.HostOutcome;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sends one delivery once. Webhooks, Slack and Teams over one HTTP client that follows no redirect (a redirect could lead
 * to an address the guard refuses); commit statuses through the git-host module, which GitHub and Gitea reviews use
 * too; GitHub Deployments over the same client ({@link GitHubDeployments}). The address is checked again before every send: a name may resolve elsewhere than when the pass checked it.
 */
public final class Sender {
    /** The header a signed webhook carries: {@code sha256=} and the hex HMAC-SHA256 of the body. */
    public static final String SIGNATURE_HEADER = "X-Windlass-Signature";

    /** What came of one send. */
    public sealed interface Outcome {
        record Sent() implements Outcome {}

        /** No answer, a 5xx or a 429: worth another try. */
        record TryAgain(String why) implements Outcome {}

        /** Refused for good (a 4xx, an address the guard refuses): trying again would not help. */
        record Refused(String why) implements Outcome {}
    }

    private final Duration timeout;
    private final Messages messages;
    private final AddressGuard guard;
    private final GitHubDeployments deployments;

    // Made at the first delivery: an HTTP client keeps a selector thread of its own awake for as long as it lives, and
    // most engines deliver nothing for hours, or have no provider at all.
    private HttpClient client;  // guarded by this

    public Sender(Duration timeout, Messages messages, AddressGuard guard) {
        this.timeout = timeout;
        this.messages = messages;
        this.guard = guard;
        this.deployments = new GitHubDeployments(this::http, timeout, messages);
    }

    private synchronized HttpClient http() {
        if (client == null) {
            client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                    .followRedirects(HttpClient.Redirect.NEVER).build();
        }
        return client;
    }

    public Outcome send(Endpoint to, Delivery d) {
        Optional<String> refusal = guard.refusal(to.address());
        if (refusal.isPresent()) return new Outcome.Refused("address refused: " + refusal.get());
        return switch (to.provider().type()) {
            case webhook -> post(to.address(), "application/cloudevents+json", messages.cloudEvent(d), to.hmacKey());
            case slack -> post(to.address(), "application/json", messages.slack(d), null);
            case msteams -> post(to.address(), "application/json", messages.teams(d), null);
            case github, gitea -> commitStatus(to, d);
            case githubdeployments -> deployments.send(to, d);
        };
    }

    private Outcome post(URI address, String contentType, String body, String hmacKey) {
        HttpRequest.Builder r = HttpRequest.newBuilder(address).timeout(timeout).header("Content-Type", contentType)
                .header("User-Agent", "windlass").POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (hmacKey != null) r.header(SIGNATURE_HEADER, "sha256=" + hmac(hmacKey, body));
        HttpResponse<String> response;
        try {
            response = http().send(r.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return new Outcome.TryAgain("no answer: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.TryAgain("interrupted");
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) return new Outcome.Sent();
        if (status == 429 || status == 408 || status >= 500) return new Outcome.TryAgain("answered " + status);
        return new Outcome.Refused("answered " + status);
    }

    private Outcome commitStatus(Endpoint to, Delivery d) {
        CommitState state = Messages.commitState(d.event().kind());
        if (state == null || d.event().source().isEmpty()) return new Outcome.Refused("sets no commit status");
        HostConfig config = new HostConfig(to.provider().type() == dev.windlass.policy.alert.ProviderType.github ? HostKind.github : HostKind.gitea,
                to.address(), to.provider().repository(), to.token());
        HostOutcome outcome = GitHost.of(config).setStatus(d.event().source(), state, Messages.statusContext(d.event()),
                Messages.title(d.event()), messages.link(d.event()));
        if (outcome instanceof HostOutcome.Done) return new Outcome.Sent();
        if (outcome instanceof HostOutcome.Deferred deferred) return new Outcome.TryAgain(deferred.reason());
        HostOutcome.Failed f = (HostOutcome.Failed) outcome;
        if (f.httpStatus() == 0 || f.httpStatus() >= 500 || f.httpStatus() == 429) return new Outcome.TryAgain(f.message());
        return new Outcome.Refused(f.message());
    }

    /** HMAC-SHA256 of {@code body} with {@code key}, in hex. */
    public static String hmac(String key, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
