package dev.windlass.applier.reads;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the writes one cluster's client sends, per resource, when each goes out and again when its answer (or
 * failure) comes back, so that a {@link WatchCache} can tell whether anything of a kind was written since it last
 * proved its watch of that kind current. Sits in the client's HTTP stack, so every write is seen whichever part of
 * Windlass made it. Dry runs change nothing and are not counted. A write whose path names no resource counts for all.
 */
public final class WriteMarks implements Interceptor {

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final AtomicLong all = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final Map<String, AtomicLong> byResource = new ConcurrentHashMap<>();

    /** Moves on with every write sent and every write answered. */
    public long count() { return all.get(); }

    /**
     * Moves on with every write to {@code resource} ({@code group/plural}, as {@link #resource} names it) sent and
     * answered, and with every write whose resource could not be told.
     */
    public long count(String resource) {
        AtomicLong of = byResource.get(resource);
        return (of == null ? 0 : of.get()) + unknown.get();
    }

    @Override public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) { mark(request); }

    @Override public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        mark(request);
    }

    @Override public void afterConnectionFailure(HttpRequest request, Throwable failure) { mark(request); }

    private void mark(HttpRequest request) {
        if (!WRITES.contains(request.method())) return;
        String query = request.uri().getRawQuery();
        if (query != null && query.contains("dryRun=All")) return;
        String resource = resource(request.uri().getRawPath());
        if (resource == null) unknown.incrementAndGet();
        else byResource.computeIfAbsent(resource, r -> new AtomicLong()).incrementAndGet();
        all.incrementAndGet();
    }

    /**
     * The resource an API path is about, as {@code group/plural} ({@code /configmaps} for the core group,
     * {@code apps/deployments}), subresources counting for their object's resource; null for a path that names none.
     * {@code /api/v1/namespaces/x} is the namespace x itself; {@code /api/v1/namespaces/x/pods/y} is a pod.
     */
    static String resource(String path) {
        if (path == null) return null;
        String[] parts = java.util.Arrays.stream(path.split("/")).filter(p -> !p.isEmpty()).toArray(String[]::new);
        String group;
        int rest;
        if (parts.length >= 3 && parts[0].equals("api")) {
            group = "";
            rest = 2;
        } else if (parts.length >= 4 && parts[0].equals("apis")) {
            group = parts[1];
            rest = 3;
        } else {
            return null;
        }
        boolean inNamespace = parts[rest].equals("namespaces") && parts.length >= rest + 3;
        return group + "/" + (inNamespace ? parts[rest + 2] : parts[rest]);
    }
}
