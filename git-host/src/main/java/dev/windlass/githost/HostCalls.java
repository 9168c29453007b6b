package dev.windlass.githost;

import dev.windlass.githost.HostOutcome.Deferred;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests to the Git host: headers for the dialect, and tries again after 5xx answers, no answer, or a rate limit
 * short enough to wait out. Everything that ends a call early is a {@link HostStop} carrying the outcome.
 */
final class HostCalls {

    private static final Logger log = LoggerFactory.getLogger(HostCalls.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);
    /** When a rate-limited answer does not say how long: the wait GitHub's documentation asks for. */
    private static final Duration UNSAID_RATE_LIMIT = Duration.ofMinutes(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    /** One try of something that may be tried again. */
    @FunctionalInterface
    interface Attempt<T> {
        T run() throws Transient, HostStop;
    }

    private final HostConfig config;
    private final String base;
    private final HttpClient http;
    private final Sleeper sleeper;
    private final Clock clock;
    private final int attempts;
    private final Duration maxWait;

    HostCalls(HostConfig config, HttpClient http, Sleeper sleeper, Clock clock, int attempts, Duration maxWait) {
        if (attempts < 1) throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
        if (maxWait.isNegative()) throw new IllegalArgumentException("maxWait is negative: " + maxWait);
        this.config = config;
        this.base = config.apiUrl().toString().replaceAll("/+$", "");
        this.http = http;
        this.sleeper = sleeper;
        this.clock = clock;
        this.attempts = attempts;
        this.maxWait = maxWait;
    }

    /** Sends until a 2xx answer, trying again as {@link #retrying} does. {@code json} null sends no body. */
    Reply send(String method, String path, String json) throws HostStop {
        return retrying(() -> once(method, path, json));
    }

    /**
     * Runs {@code attempt} up to {@code attempts} times: after a 5xx answer or none, waiting 1 s, 2 s, 4 s, ...;
     * after a rate limit, waiting until it lifts if that is at most {@code maxWait} away, else deferring.
     */
    <T> T retrying(Attempt<T> attempt) throws HostStop {
        for (int tried = 1; ; tried++) {
            Transient failure;
            try {
                return attempt.run();
            } catch (Transient e) {
                failure = e;
            }
            Duration wait;
            if (failure.rateLimitedUntil != null) {
                Instant until = failure.rateLimitedUntil;
                wait = Duration.between(clock.instant(), until);
                if (wait.isNegative()) wait = Duration.ZERO;
                if (wait.compareTo(maxWait) > 0 || tried >= attempts) {
                    log.info("The Git host rate-limits {} {} until {}: leaving it for later",
                            failure.method, failure.path, until);
                    throw new HostStop(new Deferred(until, "rate limited by the Git host until " + until));
                }
                log.info("The Git host rate-limits {} {}: waiting {} s", failure.method, failure.path,
                        wait.toSeconds());
            } else {
                if (tried >= attempts) throw new HostStop(HostFailures.gaveUp(failure, tried, config.apiUrl()));
                wait = backoff(tried);
                log.info("{} {}: {}, trying again in {} s (try {} of {})", failure.method, failure.path,
                        failure.describe(), wait.toSeconds(), tried + 1, attempts);
            }
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HostStop(HostFailures.interrupted(failure.method, failure.path));
            }
        }
    }

    /** One try: a 2xx answer, a {@link Transient} worth another try, or a {@link HostStop}. */
    Reply once(String method, String path, String json) throws Transient, HostStop {
        URI uri = uri(path);
        HttpResponse<String> response;
        try {
            response = http.send(request(method, uri, json), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            log.debug("{} {}: no answer ({})", method, path, e.toString());
            throw Transient.unreachable(method, path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostStop(HostFailures.interrupted(method, path));
        }
        int status = response.statusCode();
        log.debug("{} {} -> {}", method, path, status);
        if (status >= 200 && status < 300) return new Reply(status, response.body());
        Instant rateLimitedUntil = rateLimitedUntil(status, response.headers());
        if (rateLimitedUntil != null) throw Transient.rateLimited(method, path, status, rateLimitedUntil);
        if (status >= 500) throw Transient.serverError(method, path, status);
        throw new HostStop(HostFailures.answered(status, method, uri, response.body(),
                response.headers().firstValue("Location").orElse(null), config.hasToken()));
    }

    URI uri(String path) {
        return URI.create(base + path);
    }

    private HttpRequest request(String method, URI uri, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(REQUEST_TIMEOUT)
                .header("User-Agent", "windlass")
                .method(method, json == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        if (json != null) request.header("Content-Type", "application/json");
        switch (config.kind()) {
            case github -> {
                request.header("Accept", "application/vnd.github+json");
                request.header("X-GitHub-Api-Version", "2022-11-28");
                if (config.hasToken()) request.header("Authorization", "Bearer " + config.token());
            }
            case gitea -> {
                request.header("Accept", "application/json");
                if (config.hasToken()) request.header("Authorization", "token " + config.token());
            }
        }
        return request.build();
    }

    /**
     * When a rate limit on this answer lifts, or null if it is no rate limit: 429, or 403 with
     * {@code X-RateLimit-Remaining: 0} or {@code Retry-After}.
     */
    private Instant rateLimitedUntil(int status, HttpHeaders headers) {
        Optional<String> retryAfter = headers.firstValue("Retry-After").map(String::strip);
        boolean exhausted = headers.firstValue("X-RateLimit-Remaining").map(String::strip).filter("0"::equals)
                .isPresent();
        if (status != 429 && !(status == 403 && (exhausted || retryAfter.isPresent()))) return null;
        Instant now = clock.instant();
        Optional<Instant> until = retryAfter.flatMap(value -> afterRetryAfter(value, now));
        if (until.isEmpty()) {
            until = headers.firstValue("X-RateLimit-Reset").flatMap(HostCalls::epochSeconds);
        }
        return until.orElse(now.plus(UNSAID_RATE_LIMIT));
    }

    private static Optional<Instant> afterRetryAfter(String value, Instant now) {
        try {
            return Optional.of(now.plusSeconds(Math.max(0, Long.parseLong(value))));
        } catch (NumberFormatException notSeconds) {
            try {
                return Optional.of(ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            } catch (DateTimeParseException notADate) {
                return Optional.empty();
            }
        }
    }

    private static Optional<Instant> epochSeconds(String value) {
        try {
            return Optional.of(Instant.ofEpochSecond(Long.parseLong(value.strip())));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Duration backoff(int tried) {
        Duration wait = Duration.ofSeconds(1L << Math.min(tried - 1, 10));
        return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
    }
}
