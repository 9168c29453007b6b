package dev.windlass.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Function;

/** The side-by-side scenario's table: one row per figure, one column per engine and size, as Markdown. */
final class SideBySideTable {
    private SideBySideTable() {}

    static void print(List<SideBySide.Result> results, PrintStream out) {
        StringBuilder head = new StringBuilder("| figure |");
        StringBuilder rule = new StringBuilder("|---|");
        for (SideBySide.Result r : results) {
            head.append(' ').append(r.engine()).append(", ").append(r.apps()).append(" apps |");
            rule.append("---|");
        }
        out.println(head);
        out.println(rule);
        row(out, results, "start to first object applied", r -> SideBySide.fmt(r.firstObject()));
        row(out, results, "start to all applied", r -> SideBySide.fmt(r.allApplied()));
        row(out, results, "start to all ready (Deployments Available)", r -> SideBySide.fmt(r.allReady()));
        row(out, results, "push to the change applied", r -> SideBySide.fmt(r.pushToApplied()));
        row(out, results, "writes: first sync / one-file change / 60 s idle", r -> String.format("%,d / %,d / %,d", r.syncWrites(), r.changeWrites(), r.idleWrites()));
        row(out, results, "peak RSS (VmHWM, all its processes)", r -> String.format("%d MiB", r.peakRssKib() / 1024));
        row(out, results, "CPU: first sync / one-file change", r -> String.format("%.1f s / %.1f s", r.syncCpuSeconds(), r.changeCpuSeconds()));
        row(out, results, "CPU while idle, per minute", r -> String.format("%.2f s", r.idleCpuSecondsPerMinute()));
        row(out, results, "Git requests while idle, per minute (ref advertisements / upload-pack / push)",
                r -> String.format("%.0f / %.0f / %.0f", r.idleGitRefsPerMinute(), r.idleGitFetchesPerMinute(), r.idleGitPushesPerMinute()));
    }

    private static void row(PrintStream out, List<SideBySide.Result> results, String figure, Function<SideBySide.Result, String> cell) {
        StringBuilder line = new StringBuilder("| ").append(figure).append(" |");
        for (SideBySide.Result r : results) line.append(' ').append(cell.apply(r)).append(" |");
        out.println(line);
    }
}
