package dev.windlass.dashboard;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.TargetStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fleet matrix: applications × clusters, each cell sync, health and revision, held and suspended cells marked with
 * their reason. Filtered by application label and by problem, a page of {@link #PAGE_SIZE} applications at a time.
 */
public final class FleetPage {
    public static final int PAGE_SIZE = 50;
    public static final List<String> PROBLEMS = List.of("OutOfSync", "Degraded", "Held", "Invalid");

    /**
     * What the person asked for: applications by {@code label} ({@code key=value[,key=value]}, a key alone: has it), clusters
     * by {@code clusterLabel} (the same form), problems, a name fragment, a page.
     */
    public record Filter(String label, String clusterLabel, Set<String> problems, String name, int page) {
        public Filter {
            label = label == null ? "" : label.strip();
            clusterLabel = clusterLabel == null ? "" : clusterLabel.strip();
            problems = problems == null ? Set.of() : Set.copyOf(problems);
            name = name == null ? "" : name.strip();
            page = Math.max(1, page);
        }

        Map<String, String> labels() { return parse(label); }

        Map<String, String> clusterLabels() { return parse(clusterLabel); }

        private static Map<String, String> parse(String text) {
            Map<String, String> out = new LinkedHashMap<>();
            for (String part : text.split(",")) {
                int eq = part.indexOf('=');
                if (part.isBlank()) continue;
                if (eq < 0) out.put(part.strip(), null);
                else out.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
            return out;
        }

        /** The query string for another page of the same filter. */
        String query(int otherPage) {
            StringBuilder q = new StringBuilder("?page=" + otherPage);
            if (!label.isEmpty()) q.append("&label=").append(java.net.URLEncoder.encode(label, java.nio.charset.StandardCharsets.UTF_8));
            if (!clusterLabel.isEmpty()) q.append("&cluster=").append(java.net.URLEncoder.encode(clusterLabel, java.nio.charset.StandardCharsets.UTF_8));
            if (!name.isEmpty()) q.append("&name=").append(java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8));
            for (String p : new TreeSet<>(problems)) q.append("&problem=").append(p);
            return q.toString();
        }
    }

    /**
     * One application on one cluster. {@code outOfSync} and {@code degraded} are what the problem filters read, from the
     * target's recorded states (degraded: Degraded or Missing), never from the words or colours of its badges.
     */
    public record Cell(String cluster, boolean placed, Badge sync, Badge health, String revision, Badge hold, String reason,
                       String message, List<String> drift, boolean outOfSync, boolean degraded) {
        /** Everything the cell says, in one line: the cell's title and what its focus shows. */
        public String summary() {
            if (!placed) return "not placed on " + cluster;
            StringBuilder s = new StringBuilder(cluster + ": " + sync.text() + ", " + health.text());
            if (revision != null) s.append(", revision ").append(revision);
            if (hold != null) s.append("; ").append(hold.text().toLowerCase()).append(": ").append(reason);
            if (!message.isEmpty()) s.append("; ").append(message);
            if (!drift.isEmpty()) s.append("; drift: ").append(String.join(", ", drift));
            return s.toString();
        }
    }

    public record Row(String app, String href, List<String> labels, Badge invalid, String invalidReason, List<Cell> cells) {}

    public record Column(String cluster, String href, Badge reachability) {}

    public record PageLink(int number, String href, boolean current) {}

    public record Counts(int apps, int shown, int outOfSync, int degraded, int held, int invalid) {}

    public record ProblemOption(String name, boolean checked) {}

    public record Model(List<Column> clusters, List<Row> rows, Counts counts, List<PageLink> pages, String previous, String next,
                        int page, int pageCount, String label, String clusterLabel, String name, List<ProblemOption> problems, List<Problem> repoProblems,
                        boolean empty, ShardPanel shards, String notApplied, AlertPanel alerts) {
        public boolean hasRepoProblems() { return !repoProblems.isEmpty(); }
    }

    private FleetPage() {}

    public static Model of(FleetView view, Filter filter, GitLinks links) { return of(view, filter, links, null); }

    /** @param shards who holds which shard now, or null on an engine without shards */
    public static Model of(FleetView view, Filter filter, GitLinks links, dev.windlass.policy.shard.ShardSpread shards) {
        return of(view, filter, links, shards, List.of());
    }

    /** @param alerts the alert deliveries as recorded, oldest first (the "Alerts" section; none: no section) */
    public static Model of(FleetView view, Filter filter, GitLinks links, dev.windlass.policy.shard.ShardSpread shards, List<AlertPanel.Row> alerts) {
        Holds holds = new Holds(view);
        List<Column> columns = new ArrayList<>();
        Map<String, String> wantedClusters = filter.clusterLabels();
        for (var cluster : view.desired().clusters().values()) {
            if (!matchesLabels(cluster.labels(), wantedClusters)) continue;
            String c = cluster.name();
            var status = view.state().clusters().get(c);
            columns.add(new Column(c, "/clusters/" + c, status == null ? Badge.reachability(null, null)
                    : Badge.reachability(status.reachability(), status.health())));
        }
        Set<String> appNames = new TreeSet<>(view.desired().apps().keySet());
        appNames.addAll(view.state().apps().keySet());
        Map<String, String> wanted = filter.labels();
        List<Row> matching = new ArrayList<>();
        int outOfSync = 0, degraded = 0, held = 0, invalid = 0;
        for (String app : appNames) {
            Application a = view.desired().apps().get(app);
            Map<String, String> labels = a == null ? Map.of() : a.labels();
            Row row = row(view, holds, columns, app, a);
            boolean isOut = row.cells().stream().anyMatch(Cell::outOfSync);
            boolean isDegraded = row.cells().stream().anyMatch(Cell::degraded);
            boolean isHeld = row.cells().stream().anyMatch(c -> c.hold() != null);
            boolean isInvalid = row.invalid() != null;
            if (isOut) outOfSync++;
            if (isDegraded) degraded++;
            if (isHeld) held++;
            if (isInvalid) invalid++;
            if (!matchesLabels(labels, wanted) || !app.contains(filter.name())) continue;
            if (!filter.problems().isEmpty() && !(filter.problems().contains("OutOfSync") && isOut || filter.problems().contains("Degraded") && isDegraded
                    || filter.problems().contains("Held") && isHeld || filter.problems().contains("Invalid") && isInvalid)) continue;
            matching.add(row);
        }
        int pageCount = Math.max(1, (matching.size() + PAGE_SIZE - 1) / PAGE_SIZE);
        int page = Math.min(filter.page(), pageCount);
        List<Row> shown = matching.subList((page - 1) * PAGE_SIZE, Math.min(matching.size(), page * PAGE_SIZE));
        List<PageLink> pages = new ArrayList<>();
        for (int p = 1; p <= pageCount; p++) pages.add(new PageLink(p, "/" + filter.query(p), p == page));
        List<ProblemOption> options = PROBLEMS.stream().map(p -> new ProblemOption(p, filter.problems().contains(p))).toList();
        List<Problem> repoProblems = view.desired().diagnostics().stream().filter(Diagnostic::isError).limit(50)
                .map(d -> Problem.of(d, view.source(), links)).toList();
        return new Model(columns, List.copyOf(shown), new Counts(appNames.size(), matching.size(), outOfSync, degraded, held, invalid),
                pageCount > 1 ? pages : List.of(), page > 1 ? "/" + filter.query(page - 1) : null,
                page < pageCount ? "/" + filter.query(page + 1) : null, page, pageCount, filter.label(), filter.clusterLabel(), filter.name(), options, repoProblems,
                matching.isEmpty(), shards == null ? null : ShardPanel.of(shards, view.desired().clusters()),
                view.verification() != null && view.verification().refusing() ? view.verification().text() : null, AlertPanel.of(alerts));
    }

    private static boolean matchesLabels(Map<String, String> labels, Map<String, String> wanted) {
        for (var w : wanted.entrySet()) {
            if (!labels.containsKey(w.getKey())) return false;
            if (w.getValue() != null && !w.getValue().equals(labels.get(w.getKey()))) return false;
        }
        return true;
    }

    private static Row row(FleetView view, Holds holds, List<Column> columns, String app, Application a) {
        AppStatus status = view.state().apps().get(app);
        Set<String> placed = status == null ? Set.of() : Set.copyOf(status.placement());
        List<Cell> cells = new ArrayList<>(columns.size());
        for (Column col : columns) {
            String cluster = col.cluster();
            TargetStatus t = status == null ? null : status.target(cluster);
            Holds.Hold hold = holds.of(app, cluster);
            boolean isPlaced = placed.contains(cluster) || t != null;
            if (!isPlaced) {
                cells.add(new Cell(cluster, false, null, null, null, null, null, "", List.of(), false, false));
                continue;
            }
            cells.add(new Cell(cluster, true, Badge.sync(t == null ? null : t.sync()), Badge.health(t == null ? null : t.health()),
                    t == null || t.revision() == null ? null : shortRevision(t.revision()), hold == null ? null : Badge.held(hold.suspended()),
                    hold == null ? null : hold.reason(), t == null ? "" : t.message(), t == null ? List.of() : t.drift(),
                    t != null && t.sync() == dev.windlass.policy.state.Sync.OutOfSync,
                    t != null && (t.health() == dev.windlass.policy.state.Health.Degraded || t.health() == dev.windlass.policy.state.Health.Missing)));
        }
        String invalidReason = null;
        if (a != null && !a.valid()) {
            invalidReason = a.diagnostics().stream().filter(Diagnostic::isError).findFirst().map(Diagnostic::toString).orElse("invalid");
        }
        List<String> labels = a == null ? List.of() : a.labels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
        return new Row(app, "/apps/" + app, labels, invalidReason == null ? null : Badge.invalid(), invalidReason, cells);
    }

    /** Revisions are content hashes; the first 8 characters tell them apart on a page. */
    static String shortRevision(String revision) {
        return revision.length() > 8 ? revision.substring(0, 8) : revision;
    }
}
