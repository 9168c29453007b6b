package dev.windlass.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/** The printed result: the machine, every figure per size, ratios to the baselines, and growth between sizes. */
final class Report {
    record Size(FleetShape shape, String clusters, Figures figures) {}

    static final String COLD = "cold start: clone + first full plan";
    static final String SYNC = "initial sync: first pass, all objects applied";
    /** The initial sync of the runs after the first, whose engine code the JVM has run (and compiled) already. */
    static final String SYNC_WARM = "  of them, runs after the first (engine JVM warm)";
    static final String NOOP = "no-op pass";
    static final String INCREMENTAL = "incremental pass: one file changed";
    static final String POLL = "git poll, nothing new (fetch)";
    static final String POLL_ONE = "git poll, one new commit (fetch + diff)";
    static final String REVIEW = "plan of a pull request touching 1% of apps";
    static final String STATUS = "status commit (one file, lease + commit + push)";
    static final String PARSE_FLOOR = "floor: parse + hash every file";
    static final String WARM_PARSE = "parse (all files) again, warm: the engine's parser, nothing cached";
    static final String TRIP_FLOOR = "floor: one round trip per placed object";
    static final String NAIVE = "naive loop: apply every object, one pass";
    static final String PEAK_HEAP = "heap: peak in use, cold start to synced";
    static final String LIVE_HEAP = "heap: live after sync (after full GC)";
    static final String PEAK_RSS = "RSS: peak, cold start to synced";
    static final String APPLIED = "start to all applied: clone + first pass";
    static final String HEALTHY = "start to all healthy: clone + passes until all Healthy";
    /** The least time the clusters' own work for the creates leaves a first sync on this machine, against the floor. */
    static final String CLUSTERS_ALONE = "clusters alone: creates' CPU / cores / round-trip floor";
    /** The hung-cluster scenario's goal: the answering clusters' push to applied within 10% of the run without the hang. */
    static final double HUNG_GOAL = 1.10;

    private final List<Size> sizes;
    private final int runs;

    Report(List<Size> sizes, int runs) {
        this.sizes = sizes;
        this.runs = runs;
    }

    void print(PrintStream out) {
        out.println();
        out.println("Windlass benchmark");
        out.printf("machine: %d cores, JVM max heap %s, Java %s, %s %s%n", Runtime.getRuntime().availableProcessors(),
                bytes(Runtime.getRuntime().maxMemory()), System.getProperty("java.version"), System.getProperty("os.name"),
                System.getProperty("os.arch"));
        out.printf("JVM flags: %s%n", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        for (Size s : sizes) {
            out.println();
            out.printf("## %s, on %s; %d run(s): median [min .. max]%n", s.shape(), s.clusters(), runs);
            for (Figures.Figure f : s.figures().all()) {
                out.printf("%-58s %14s  [%s .. %s]%n", f.name(), value(f.unit(), f.median()), value(f.unit(), f.min()), value(f.unit(), f.max()));
            }
            Figures f = s.figures();
            if (!Double.isNaN(f.median(NAIVE))) baselines(out, f);
            if (!Double.isNaN(f.median(HungCluster.ONE_HUNG))) hung(out, f, s.shape());
        }
        if (sizes.size() > 1) growth(out);
    }

    private static void baselines(PrintStream out, Figures f) {
        out.println();
        out.println("Ratios to the baselines (medians):");
        ratio(out, "full parse / parse floor", f.median(COLD, "  of which parse (all files)"), f.median(PARSE_FLOOR));
        ratio(out, "full parse, warm / parse floor", f.median(WARM_PARSE), f.median(PARSE_FLOOR));
        ratio(out, "initial sync / round-trip floor", f.median(SYNC), f.median(TRIP_FLOOR));
        f.all().stream().filter(x -> x.name().startsWith(TRIP_FLOOR + ", ")).findFirst().ifPresent(inFlight ->
                ratio(out, "initial sync / round-trip floor," + inFlight.name().substring(TRIP_FLOOR.length() + 1), f.median(SYNC), inFlight.median()));
        ratio(out, "initial sync / naive loop pass", f.median(SYNC), f.median(NAIVE));
        ratio(out, "initial sync / naive loop's first pass on new clusters", f.median(SYNC), f.median(Baselines.NAIVE_FIRST));
        ratio(out, "initial sync, engine JVM cold / naive first pass, new JVM", f.first(SYNC), f.median(NaiveFirstPassJvm.NAME));
        if (!Double.isNaN(f.median(SYNC, SYNC_WARM))) {
            ratio(out, "initial sync, engine JVM warm / round-trip floor", f.median(SYNC, SYNC_WARM), f.median(TRIP_FLOOR));
            ratio(out, "initial sync, engine JVM warm / naive loop pass", f.median(SYNC, SYNC_WARM), f.median(NAIVE));
            ratio(out, "initial sync, engine JVM warm / naive loop's first pass", f.median(SYNC, SYNC_WARM), f.median(Baselines.NAIVE_FIRST));
        }
        ratio(out, "naive loop's first pass / round-trip floor", f.median(Baselines.NAIVE_FIRST), f.median(TRIP_FLOOR));
        // The clusters' CPU for the naive loop's creates, spread over every core of the machine: the time the clusters
        // alone need to take those objects, as if the client cost nothing. No sync that creates them can take less here.
        ratio(out, CLUSTERS_ALONE, f.median(Baselines.NAIVE_FIRST, CpuTime.CLUSTERS) / Runtime.getRuntime().availableProcessors(),
                f.median(TRIP_FLOOR));
        ratio(out, "clusters' CPU per write, initial sync / naive first pass",
                f.median(SYNC, CpuTime.CLUSTERS) / f.median(SYNC, "  API writes"),
                f.median(Baselines.NAIVE_FIRST, CpuTime.CLUSTERS) / f.median(Baselines.NAIVE_FIRST, "  API writes"));
        ratio(out, "this JVM's CPU, initial sync / naive first pass", f.median(SYNC, CpuTime.JVM), f.median(Baselines.NAIVE_FIRST, CpuTime.JVM));
        ratio(out, "no-op pass / naive loop pass (time)", f.median(NOOP), f.median(NAIVE));
        out.printf("  %-52s %s vs %s%n", "no-op pass writes vs naive loop writes", count(f.median(NOOP, "  API writes (must be 0)")),
                count(f.median(NAIVE, "  API writes")));
        ratio(out, "incremental pass / naive loop pass (time)", f.median(INCREMENTAL), f.median(NAIVE));
        out.printf("  %-52s %s vs %s%n", "incremental pass writes vs naive loop writes", count(f.median(INCREMENTAL, "  API writes")),
                count(f.median(NAIVE, "  API writes")));
    }

    /** The hung-cluster scenario against its goal. */
    private static void hung(PrintStream out, Figures f, FleetShape shape) {
        out.println();
        out.printf("Hung cluster: push to applied on the %d clusters that answer (medians over every push of every run, pushes held by a"
                + " compaction of the engine's mirror left out):%n", shape.clusters() - 1);
        double none = f.median(HungCluster.NONE_HUNG);
        double one = f.median(HungCluster.ONE_HUNG);
        out.printf(Locale.ROOT, "  %-52s %s%n", "none hung", value(Figures.Unit.MS, none));
        out.printf(Locale.ROOT, "  %-52s %s%n", "1 of " + shape.clusters() + " hung", value(Figures.Unit.MS, one));
        ratio(out, "1 hung / none hung", one, none);
        if (!Double.isNaN(f.median(HungCluster.RATIO))) {
            Figures.Figure perRun = f.all().stream().filter(x -> x.name().equals(HungCluster.RATIO)).findFirst().orElseThrow();
            out.printf(Locale.ROOT, "  %-52s %s%n", "1 hung / none hung, each run on its own", perRun.values().stream()
                    .map(v -> String.format(Locale.ROOT, "%.2f", v)).collect(java.util.stream.Collectors.joining(", ")));
        }
        ratio(out, "first push after the hang began / none hung", f.median(HungCluster.ONE_HUNG, HungCluster.FIRST_AFTER_HANG), none);
        out.printf(Locale.ROOT, "  %-52s %s%n", String.format(Locale.ROOT, "goal: 1 hung / none hung <= %.2f", HUNG_GOAL),
                Double.isNaN(one / none) ? "-" : one / none <= HUNG_GOAL ? "met" : "missed");
    }

    private void growth(PrintStream out) {
        out.println();
        out.println("Growth with the number of apps (medians; ratio to the previous size):");
        String[] rows = {COLD, SYNC, APPLIED, HEALTHY, NOOP, INCREMENTAL, POLL, POLL_ONE, REVIEW, STATUS, PEAK_HEAP, LIVE_HEAP, PEAK_RSS};
        StringBuilder head = new StringBuilder(String.format("%-48s", "figure"));
        for (Size s : sizes) head.append(String.format(" %22s", s.shape().apps() + " apps"));
        out.println(head);
        for (String row : rows) {
            StringBuilder line = new StringBuilder(String.format("%-48s", row.length() > 48 ? row.substring(0, 47) + "…" : row));
            Double previous = null;
            for (Size s : sizes) {
                Figures.Figure fig = s.figures().all().stream().filter(x -> x.name().equals(row)).findFirst().orElse(null);
                if (fig == null) {
                    line.append(String.format(" %22s", "-"));
                    continue;
                }
                double m = fig.median();
                String cell = value(fig.unit(), m) + (previous == null ? "" : String.format(Locale.ROOT, " (x%.1f)", m / previous));
                line.append(String.format(" %22s", cell));
                previous = m;
            }
            out.println(line);
        }
    }

    private static void ratio(PrintStream out, String what, double a, double b) {
        out.printf(Locale.ROOT, "  %-52s %s%n", what, Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", a / b));
    }

    static String value(Figures.Unit unit, double v) {
        if (Double.isNaN(v)) return "-";
        return switch (unit) {
            case MS -> v >= 10_000 ? String.format(Locale.ROOT, "%.1f s", v / 1000) : String.format(Locale.ROOT, "%.1f ms", v);
            case COUNT -> count(v);
            case PER_SECOND -> String.format(Locale.ROOT, "%.0f/s", v);
            case BYTES -> bytes((long) v);
            case RATIO -> String.format(Locale.ROOT, "%.2f", v);
        };
    }

    private static String count(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%,.1f", v);
    }

    static String bytes(long b) {
        if (b < 0) return "-";
        if (b < 1024 * 1024) return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
        if (b < 1024L * 1024 * 1024) return String.format(Locale.ROOT, "%.1f MiB", b / 1024.0 / 1024);
        return String.format(Locale.ROOT, "%.2f GiB", b / 1024.0 / 1024 / 1024);
    }
}
