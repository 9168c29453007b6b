package dev.windlass.kubetest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API server's own count of the requests it served ({@code apiserver_request_total}), so that a test can say
 * how many writes really reached the server, whatever the client did or retried. Verbs are the server's:
 * {@code GET LIST WATCH POST PUT PATCH APPLY DELETE DELETECOLLECTION}; server-side apply is {@code APPLY}.
 * The server counts a request once it has answered it, so a count read right after a response may lag by that request.
 */
public record RequestCounts(List<Sample> samples) {

    /** Verbs that change stored objects (unless the request was a dry run). */
    public static final Set<String> WRITE_VERBS = Set.of("POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION");

    /** One series of the counter; {@code resource} is plural and lower case, like {@code deployments}. */
    public record Sample(String verb, String group, String resource, String subresource, boolean dryRun, String code,
                         long count) {}

    private static final Pattern SERIES = Pattern.compile("^apiserver_request_total\\{([^}]*)}\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    public RequestCounts { samples = List.copyOf(samples); }

    /**
     * Parses the Prometheus text format served at {@code /metrics}. Series that differ only in labels not kept
     * here (version, scope, component) are added up, so each sample is unique but for its count.
     */
    public static RequestCounts parse(String metrics) {
        Map<Sample, Long> counts = new LinkedHashMap<>();
        for (String line : metrics.split("\n")) {
            Matcher series = SERIES.matcher(line);
            if (!series.find()) continue;
            Map<String, String> labels = new HashMap<>();
            Matcher label = LABEL.matcher(series.group(1));
            while (label.find()) labels.put(label.group(1), label.group(2));
            Sample key = new Sample(labels.getOrDefault("verb", ""), labels.getOrDefault("group", ""),
                    labels.getOrDefault("resource", ""), labels.getOrDefault("subresource", ""),
                    !labels.getOrDefault("dry_run", "").isEmpty(), labels.getOrDefault("code", ""), 0);
            counts.merge(key, (long) Double.parseDouble(series.group(2)), Long::sum);
        }
        return new RequestCounts(withCounts(counts));
    }

    /** Requests with {@code verb} on {@code resource} (any group, any answer, dry runs included). */
    public long count(String verb, String resource) {
        return samples.stream().filter(s -> s.verb().equals(verb) && s.resource().equals(resource))
                .mapToLong(Sample::count).sum();
    }

    /** Requests that could have changed {@code resource} objects: write verbs, dry runs excluded, any answer. */
    public long writes(String resource) {
        return samples.stream().filter(s -> WRITE_VERBS.contains(s.verb()) && !s.dryRun() && s.resource().equals(resource))
                .mapToLong(Sample::count).sum();
    }

    /**
     * Writes to the objects themselves of {@code resource}: write verbs, dry runs and subresources ({@code status},
     * {@code scale}, {@code eviction}) excluded, any answer. On a cluster whose controllers keep writing statuses, this
     * is what a client that applies objects did.
     */
    public long objectWrites(String resource) {
        return objectWriteSamples(resource).stream().mapToLong(Sample::count).sum();
    }

    /** The samples {@link #objectWrites(String)} adds up, for a test to say which verbs they were. */
    public List<Sample> objectWriteSamples(String resource) {
        return samples.stream().filter(s -> WRITE_VERBS.contains(s.verb()) && !s.dryRun() && s.subresource().isEmpty()
                && s.resource().equals(resource) && s.count() > 0).toList();
    }

    /**
     * These counts without {@code group}/{@code resource}. A test that wants every write a client made leaves out the
     * leases the API server renews for itself every ten seconds ({@code coordination.k8s.io}, {@code leases}).
     */
    public RequestCounts without(String group, String resource) {
        return new RequestCounts(samples.stream().filter(s -> !(s.group().equals(group) && s.resource().equals(resource))).toList());
    }

    /** Writes of any resource, dry runs excluded. */
    public long writes() {
        return samples.stream().filter(s -> WRITE_VERBS.contains(s.verb()) && !s.dryRun()).mapToLong(Sample::count).sum();
    }

    /** Dry-run requests on {@code resource}. */
    public long dryRuns(String resource) {
        return samples.stream().filter(s -> s.dryRun() && s.resource().equals(resource)).mapToLong(Sample::count).sum();
    }

    /** What was counted after {@code earlier} was read; the counters only grow. */
    public RequestCounts since(RequestCounts earlier) {
        Map<Sample, Long> delta = new LinkedHashMap<>();
        for (Sample s : samples) delta.merge(withoutCount(s), s.count(), Long::sum);
        for (Sample s : earlier.samples) delta.merge(withoutCount(s), -s.count(), Long::sum);
        delta.values().removeIf(d -> d == 0);
        return new RequestCounts(withCounts(delta));
    }

    private static Sample withoutCount(Sample s) {
        return new Sample(s.verb(), s.group(), s.resource(), s.subresource(), s.dryRun(), s.code(), 0);
    }

    private static List<Sample> withCounts(Map<Sample, Long> counts) {
        List<Sample> out = new ArrayList<>();
        counts.forEach((s, n) -> out.add(new Sample(s.verb(), s.group(), s.resource(), s.subresource(), s.dryRun(), s.code(), n)));
        return out;
    }
}
