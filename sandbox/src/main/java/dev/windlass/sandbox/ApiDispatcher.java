package dev.windlass.sandbox;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Sits between the mock web server and the CRUD store: counts every request, answers the endpoints the CRUD store
 * does not know (it answers /readyz and /version with an empty List), refuses writes whose metadata a real API server
 * refuses (see {@link ObjectValidation}), applies JSON merge patches itself (see {@link MergePatch}), delays responses
 * when latency is injected, and fails {@code /readyz} while the API server is made not ready.
 * Runs on the server's event loop, so it never blocks: delay is a body delay the server applies with a timer.
 */
final class ApiDispatcher extends Dispatcher {

    private static final String VERSION = """
            {"major":"1","minor":"33","gitVersion":"v1.33.0-windlass-sandbox","gitCommit":"0000000",\
            "gitTreeState":"clean","goVersion":"go1.24","compiler":"gc","platform":"linux/amd64"}""";

    /** What a real API server says when a readiness check fails: the failed checks, then a last line. */
    static final String NOT_READY_BODY = "[-]etcd failed: reason withheld\nreadyz check failed\n";

    private final Dispatcher store;
    private final ObjectValidation validation;
    private final MergePatch mergePatch;
    private final RequestLog log;
    private volatile Duration latency = Duration.ZERO;
    private volatile boolean notReady;

    ApiDispatcher(Dispatcher store, RequestLog log) {
        this.store = store;
        this.validation = new ObjectValidation(store);
        this.mergePatch = new MergePatch(store, validation);
        this.log = log;
    }

    void latency(Duration value) {
        Objects.requireNonNull(value, "latency");
        if (value.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative");
        }
        latency = value;
    }

    Duration latency() {
        return latency;
    }

    void notReady(boolean value) {
        notReady = value;
    }

    boolean notReady() {
        return notReady;
    }

    @Override public MockResponse dispatch(RecordedRequest request) {
        String path = withoutQuery(request.getPath());
        log.record(request.getMethod(), path);
        MockResponse response = WatchCleanUp.offTheEventLoop(answer(request, path));
        Duration delay = latency;
        // A WebSocket upgrade (watch) has no body to hold back; the server only delays responses that have one.
        if (!delay.isZero() && response.getWebSocketListener() == null) {
            response.setBodyDelay(delay);
        }
        return response;
    }

    private MockResponse answer(RecordedRequest request, String path) {
        if ("GET".equals(request.getMethod())) {
            switch (path) {
                case "/readyz":
                    return notReady ? text(500, NOT_READY_BODY) : text(200, "ok");
                case "/healthz", "/livez":
                    return text(200, "ok");
                case "/version":
                    return json(200, VERSION);
                default:
                    break;
            }
        }
        Optional<MockResponse> refused = validation.refusal(request, path);
        if (refused.isPresent()) {
            return refused.get();
        }
        MockResponse response = MergePatch.isMergePatch(request)
                ? mergePatch.apply(request, path)
                : store.dispatch(request);
        // The store answers a missing object with an empty 404; a real API server sends a Status naming it
        // (configmaps "web" not found), and the body is also what lets injected latency apply to it.
        if (response.code() == 404 && (response.getBody() == null || response.getBody().size() == 0)) {
            return ApiPath.parse(path).filter(api -> api.name() != null)
                    .map(api -> Refusals.notFound(api.group(), api.resource(), api.name()))
                    .orElseGet(() -> json(404, """
                            {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"not found",\
                            "reason":"NotFound","code":404}"""));
        }
        return response;
    }

    private static MockResponse text(int code, String body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "text/plain; charset=utf-8")
                .setBody(body);
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
    }

    private static String withoutQuery(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    @Override public void shutdown() {
        store.shutdown();
    }
}
