package dev.windlass.dashboard;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Times as people read them on a page: UTC, to the second ({@code 2026-11-21 09:00:05Z}); anything else as it is. */
final class Times {
    private static final DateTimeFormatter SHOWN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private Times() {}

    static String show(String iso) {
        if (iso == null || iso.isEmpty()) return iso;
        try {
            return SHOWN.format(Instant.parse(iso));
        } catch (DateTimeParseException e) {
            return iso;
        }
    }

    static String show(Instant at) { return at == null ? null : SHOWN.format(at); }
}
