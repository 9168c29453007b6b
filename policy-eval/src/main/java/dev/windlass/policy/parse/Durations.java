package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written the way Kubernetes users write them: {@code 90s}, {@code 10m}, {@code 1h30m}, {@code 60h}. */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /** The longest duration Windlass reads (ten years); a longer one is out of range, as is a number past a long. */
    public static final Duration MAX = Duration.ofDays(3650);

    /** Stands for a duration past what {@link Duration} holds. */
    private static final Duration OVERFLOW = Duration.ofSeconds(Long.MAX_VALUE);

    private Durations() {}

    /** The duration, or null when the text is not one or is longer than {@link #MAX}. */
    public static Duration parse(String text) {
        Duration d = written(text);
        return d == null || d.compareTo(MAX) > 0 ? null : d;
    }

    /** Whether the text is written as a duration, but one longer than {@link #MAX}. */
    public static boolean outOfRange(String text) {
        Duration d = written(text);
        return d != null && d.compareTo(MAX) > 0;
    }

    /** Why {@link #parse} refused the text of field {@code field}, and what to write instead ({@code examples}). */
    public static String problem(String field, String text, String examples) {
        return field + " " + Excerpt.quoted(text) + " " + (outOfRange(text)
                ? "is out of range: Windlass reads durations of at most " + MAX.toDays() + "d; write e.g. "
                : "is not a duration; write e.g. ") + examples;
    }

    /** The duration as written, however long ({@link #OVERFLOW} when past what a Duration holds), or null. */
    private static Duration written(String text) {
        if (text == null || text.isEmpty()) return null;
        Matcher m = PART.matcher(text);
        Duration total = Duration.ZERO;
        boolean overflow = false;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) return null;
            end = m.end();
            if (overflow) continue;
            try {
                long n = Long.parseLong(m.group(1));
                total = total.plus(switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                });
            } catch (NumberFormatException | ArithmeticException e) {
                overflow = true;
            }
        }
        if (end != text.length()) return null;
        return overflow ? OVERFLOW : total;
    }

    /** {@code 1h30m}, {@code 45s}: the inverse of {@link #parse}. */
    public static String format(Duration d) {
        long s = d.getSeconds();
        if (s == 0) return d.toMillis() == 0 ? "0s" : d.toMillis() + "ms";
        StringBuilder b = new StringBuilder();
        if (s >= 3600) b.append(s / 3600).append('h');
        if (s % 3600 >= 60) b.append(s % 3600 / 60).append('m');
        if (s % 60 > 0) b.append(s % 60).append('s');
        return b.toString();
    }
}
