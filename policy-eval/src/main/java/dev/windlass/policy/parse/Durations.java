package dev.windlass.policy.parse;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written the way Kubernetes users write them: {@code 90s}, {@code 10m}, {@code 1h30m}, {@code 60h}. */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private Durations() {}

    /** The duration, or null when the text is not one. */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) return null;
        Matcher m = PART.matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) return null;
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            });
            end = m.end();
        }
        return end == text.length() ? total : null;
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
