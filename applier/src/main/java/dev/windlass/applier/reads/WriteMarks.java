package dev.windlass.applier.reads;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the writes one cluster's client sends, when each goes out and again when its answer (or failure) comes
 * back, so that a {@link WatchCache} can tell whether anything was written since it last proved itself current.
 * Sits in the client's HTTP stack, so every write is seen whichever part of Windlass made it. Dry runs change nothing
 * and are not counted.
 */
public final class WriteMarks implements Interceptor {

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final AtomicLong count = new AtomicLong();

    /** Moves on with every write sent and every write answered. */
    public long count() { return count.get(); }

    @Override public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) { mark(request); }

    @Override public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        mark(request);
    }

    @Override public void afterConnectionFailure(HttpRequest request, Throwable failure) { mark(request); }

    private void mark(HttpRequest request) {
        if (!WRITES.contains(request.method())) return;
        String query = request.uri().getRawQuery();
        if (query != null && query.contains("dryRun=All")) return;
        count.incrementAndGet();
    }
}
