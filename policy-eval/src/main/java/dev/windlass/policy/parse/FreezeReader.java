package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.SourceLocation;
import java.text.ParseException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.quartz.CronExpression;

/**
 * Reads {@code kind: Freeze}. The schedule is checked by the same Quartz parser that evaluates it, so
 * {@code windlass validate} accepts exactly the schedules the engine can follow.
 */
final class FreezeReader {
    private FreezeReader() {}

    /** A Freeze and where its name lists are, for warnings about names nothing has. */
    record Read(Freeze freeze, SourceLocation applicationsAt, SourceLocation clusterNamesAt) {}

    /** The Freeze, or null when it has errors (reported to {@code out}); a Freeze is never used half-read. */
    static Read read(YamlDoc doc, List<Diagnostic> out) {
        int before = out.size();
        Envelope envelope = Envelope.read(doc, "Freeze", out);
        Fields root = envelope.root();
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            root.errorHere("Freeze.spec is required: what it holds and when ('spec: {}' holds everything until the Freeze is removed)");
            return null;
        }
        LabelSelector selector = spec.has("selector") ? SelectorReader.read(spec, "selector") : null;
        List<String> applications = spec.strings("applications");
        LabelSelector clusterSelector = spec.has("clusterSelector") ? SelectorReader.read(spec, "clusterSelector") : null;
        List<String> clusterNames = spec.strings("clusterNames");
        String schedule = schedule(spec);
        boolean scheduled = spec.has("schedule");
        Duration duration = duration(spec, scheduled);
        ZoneId zone = timeZone(spec, scheduled);
        String reason = spec.string("reason", null);
        SourceLocation applicationsAt = spec.at("applications");
        SourceLocation clusterNamesAt = spec.at("clusterNames");
        spec.end();
        if (meta == null || out.subList(before, out.size()).stream().anyMatch(Diagnostic::isError)) return null;
        return new Read(new Freeze(meta.name(), selector, applications, clusterSelector, clusterNames, schedule, duration, zone, reason,
                doc.location()), applicationsAt, clusterNamesAt);
    }

    private static String schedule(Fields spec) {
        String text = spec.string("schedule", null);
        if (text == null) return null;
        try {
            CronExpression.validateExpression(text);
            return text;
        } catch (ParseException e) {
            spec.error("schedule", "Freeze.spec.schedule " + Excerpt.quoted(text) + " is not a Quartz cron expression (" + e.getMessage()
                    + "); write seconds minutes hours day-of-month month day-of-week, with '?' in one of the day fields, e.g. \"0 0 18 ? * FRI\"");
            return null;
        }
    }

    private static Duration duration(Fields spec, boolean scheduled) {
        if (!spec.has("duration")) {
            if (scheduled) spec.errorHere("Freeze.spec.duration is required with a schedule: how long each window stays open, e.g. 60h");
            return null;
        }
        String text = spec.rawScalar("duration");
        if (!scheduled) {
            spec.error("duration", "Freeze.spec.duration needs a schedule; without one the Freeze holds until its file is removed, so remove duration or add a schedule");
            return null;
        }
        Duration d = Durations.parse(text);
        if (text != null && text.startsWith("-") && Durations.parse(text.substring(1)) != null) {
            spec.error("duration", "Freeze.spec.duration " + Excerpt.quoted(text) + " is negative; a window must stay open for longer than 0s");
        } else if (d == null) {
            spec.error("duration", Durations.problem("Freeze.spec.duration", text == null ? "..." : text, "90m, 60h or 1h30m"));
        } else if (d.isZero()) {
            spec.error("duration", "Freeze.spec.duration is " + text + "; a window must stay open for longer than 0s");
        }
        return d;
    }

    private static ZoneId timeZone(Fields spec, boolean scheduled) {
        String text = spec.string("timeZone", null);
        if (text == null) return ZoneOffset.UTC;
        if (!scheduled) {
            spec.error("timeZone", "Freeze.spec.timeZone needs a schedule (it says in which zone the schedule's times are); remove it or add a schedule");
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(text);
        } catch (DateTimeException e) {
            spec.error("timeZone", "Freeze.spec.timeZone " + Excerpt.quoted(text) + " is not a known time zone; use a name such as Europe/Berlin, America/New_York or UTC");
            return ZoneOffset.UTC;
        }
    }
}
