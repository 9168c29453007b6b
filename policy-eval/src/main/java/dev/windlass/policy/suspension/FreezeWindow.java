package dev.windlass.policy.suspension;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Freeze;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Optional;
import java.util.TimeZone;
import org.quartz.CronExpression;

/**
 * When a Freeze is in force. A scheduled Freeze opens at each fire time of its Quartz cron (computed in its
 * time zone, so "18:00 on Fridays" stays 18:00 across daylight-saving changes) and stays open for its
 * duration, counted in elapsed time. A Freeze without a schedule is open until its file is removed.
 */
public final class FreezeWindow {
    private FreezeWindow() {}

    /**
     * A stretch of time during which a Freeze holds, {@code from} inclusive, {@code until} exclusive.
     *
     * @param from  when the window opened, or null for a Freeze without schedule (in force since it was committed)
     * @param until when the window closes, or null for a Freeze without schedule (until it is removed)
     */
    public record Window(Instant from, Instant until) {
        public boolean openEnded() { return until == null; }
    }

    /** The window of {@code f} open at {@code now}, or empty when {@code f} does not hold now. */
    public static Optional<Window> openAt(Freeze f, Instant now) {
        if (f.schedule() == null) return Optional.of(new Window(null, null));
        CronExpression cron = cron(f);
        Duration length = f.duration();
        // Quartz has no usable "previous fire time", so look back for the latest fire time t with
        // now - duration < t <= now. Widening the look-back from one second keeps this cheap for
        // dense schedules with long windows (every minute for 60h would be 3600 steps otherwise).
        Duration back = Duration.ofSeconds(1);
        while (back.compareTo(length) < 0 && !firesIn(cron, now.minus(back), now)) back = back.multipliedBy(2);
        if (back.compareTo(length) > 0) back = length;
        Instant latest = null;
        for (Instant t = next(cron, now.minus(back)); t != null && !t.isAfter(now); t = next(cron, t)) latest = t;
        return latest == null ? Optional.empty() : Optional.of(new Window(latest, latest.plus(length)));
    }

    /** The next time a window of {@code f} opens after {@code now}; empty without schedule (then it never "opens", it holds). */
    public static Optional<Instant> nextOpening(Freeze f, Instant now) {
        if (f.schedule() == null) return Optional.empty();
        return Optional.ofNullable(next(cron(f), now));
    }

    /**
     * The Freeze and how long it holds, in the words held actions use: {@code Freeze/black-friday until
     * 2026-11-30T06:00+01:00} (the end in the Freeze's own time zone), or {@code Freeze/x until the Freeze is removed}.
     */
    public static String describe(Freeze f, Window w) {
        if (w.openEnded()) return "Freeze/" + f.name() + " until the Freeze is removed";
        return "Freeze/" + f.name() + " until " + w.until().atZone(f.timeZone()).toOffsetDateTime().truncatedTo(ChronoUnit.SECONDS);
    }

    /** Whether a fire time falls in (after, upTo]. */
    private static boolean firesIn(CronExpression cron, Instant after, Instant upTo) {
        Instant t = next(cron, after);
        return t != null && !t.isAfter(upTo);
    }

    /** The first fire time strictly after {@code after}, or null when the schedule never fires again. */
    private static Instant next(CronExpression cron, Instant after) {
        Date d = cron.getNextValidTimeAfter(Date.from(after));
        return d == null ? null : d.toInstant();
    }

    private static CronExpression cron(Freeze f) {
        try {
            CronExpression cron = new CronExpression(f.schedule());
            cron.setTimeZone(TimeZone.getTimeZone(f.timeZone()));
            return cron;
        } catch (ParseException e) {
            // The parser only lets valid schedules into a Freeze.
            throw new IllegalArgumentException("Freeze " + f.name() + " has an invalid schedule " + Excerpt.quoted(f.schedule()) + ": " + e.getMessage(), e);
        }
    }
}
