package dev.windlass.policy.suspension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeout;

import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.parse.Durations;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FreezeWindowTest {
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    static Freeze freeze(String name, String schedule, String duration, ZoneId zone) {
        return new Freeze(name, null, List.of(), null, List.of(), schedule, duration == null ? null : Durations.parse(duration),
                zone, null, SourceLocation.file("freezes/" + name + ".yaml"));
    }

    /** Fridays 18:00 in Berlin for 60h: Black Friday 2026 is 27 November. */
    static final Freeze BLACK_FRIDAY = freeze("black-friday", "0 0 18 ? * FRI", "60h", BERLIN);
    static final Freeze NIGHTLY = freeze("nightly", "0 0 22 * * ?", "4h", ZoneOffset.UTC);
    static final Freeze SHIFTS = freeze("shifts", "0 0 */6 * * ?", "6h", ZoneOffset.UTC);
    static final Freeze EVERY_MINUTE = freeze("dense", "0 * * * * ?", "60h", ZoneOffset.UTC);
    static final Freeze LONG_GONE = freeze("y2020", "0 0 12 1 1 ? 2020", "1h", ZoneOffset.UTC);
    static final Freeze OPEN_ENDED = freeze("incident", null, null, ZoneOffset.UTC);

    static Stream<Arguments> windows() {
        return Stream.of(
                // name, freeze, now, open window (from, until) or "-", next opening or "-"
                Arguments.of("a second before it opens", BLACK_FRIDAY, "2026-11-27T16:59:59Z", "-", "2026-11-27T17:00:00Z"),
                Arguments.of("the moment it opens", BLACK_FRIDAY, "2026-11-27T17:00:00Z", "2026-11-27T17:00:00Z/2026-11-30T05:00:00Z", "2026-12-04T17:00:00Z"),
                Arguments.of("on the Sunday", BLACK_FRIDAY, "2026-11-29T12:00:00Z", "2026-11-27T17:00:00Z/2026-11-30T05:00:00Z", "2026-12-04T17:00:00Z"),
                Arguments.of("its last second", BLACK_FRIDAY, "2026-11-30T04:59:59Z", "2026-11-27T17:00:00Z/2026-11-30T05:00:00Z", "2026-12-04T17:00:00Z"),
                Arguments.of("the moment it closes", BLACK_FRIDAY, "2026-11-30T05:00:00Z", "-", "2026-12-04T17:00:00Z"),
                // Summer time ends in Berlin on 25 October 2026: the window opened at 18:00 CEST (16:00Z) and lasts
                // 60 elapsed hours, so it closes at 05:00 CET, not 06:00.
                Arguments.of("across the end of summer time", BLACK_FRIDAY, "2026-10-25T12:00:00Z", "2026-10-23T16:00:00Z/2026-10-26T04:00:00Z", "2026-10-30T17:00:00Z"),
                Arguments.of("18:00 in winter is 17:00Z, not 16:00Z", BLACK_FRIDAY, "2026-10-30T16:30:00Z", "-", "2026-10-30T17:00:00Z"),
                Arguments.of("across the start of summer time", BLACK_FRIDAY, "2026-03-29T12:00:00Z", "2026-03-27T17:00:00Z/2026-03-30T05:00:00Z", "2026-04-03T16:00:00Z"),
                Arguments.of("after midnight", NIGHTLY, "2026-11-22T01:00:00Z", "2026-11-21T22:00:00Z/2026-11-22T02:00:00Z", "2026-11-22T22:00:00Z"),
                Arguments.of("closed by day", NIGHTLY, "2026-11-22T02:00:00Z", "-", "2026-11-22T22:00:00Z"),
                Arguments.of("the end of one window", SHIFTS, "2026-11-22T05:59:59Z", "2026-11-22T00:00:00Z/2026-11-22T06:00:00Z", "2026-11-22T06:00:00Z"),
                Arguments.of("the start of the next", SHIFTS, "2026-11-22T06:00:00Z", "2026-11-22T06:00:00Z/2026-11-22T12:00:00Z", "2026-11-22T12:00:00Z"),
                Arguments.of("overlapping windows: the latest opening", EVERY_MINUTE, "2026-11-22T10:30:15.250Z", "2026-11-22T10:30:00Z/2026-11-24T22:30:00Z",
                        "2026-11-22T10:31:00Z"),
                Arguments.of("a schedule that never fires again", LONG_GONE, "2026-11-22T10:00:00Z", "-", "-"),
                Arguments.of("without schedule", OPEN_ENDED, "2026-11-22T10:00:00Z", "since it was committed/until it is removed", "-"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("windows")
    void theWindowOpenAtATimeAndTheNextOpening(String name, Freeze f, String now, String window, String next) {
        Instant at = Instant.parse(now);
        assertEquals(window, FreezeWindow.openAt(f, at).map(FreezeWindowTest::show).orElse("-"));
        assertEquals(next, FreezeWindow.nextOpening(f, at).map(Instant::toString).orElse("-"));
    }

    static String show(FreezeWindow.Window w) {
        return (w.from() == null ? "since it was committed" : w.from().toString()) + "/" + (w.until() == null ? "until it is removed" : w.until().toString());
    }

    @Test
    void describedAsHeldActionsSayItInTheFreezesOwnTimeZone() {
        assertEquals("Freeze/black-friday until 2026-11-30T06:00+01:00", describeAt(BLACK_FRIDAY, "2026-11-28T00:00:00Z"));
        assertEquals("Freeze/black-friday until 2026-10-26T05:00+01:00", describeAt(BLACK_FRIDAY, "2026-10-25T12:00:00Z"));
        assertEquals("Freeze/black-friday until 2026-03-30T07:00+02:00", describeAt(BLACK_FRIDAY, "2026-03-29T12:00:00Z"));
        assertEquals("Freeze/nightly until 2026-11-22T02:00Z", describeAt(NIGHTLY, "2026-11-22T01:00:00Z"));
        assertEquals("Freeze/short until 2026-11-22T10:01:30Z", describeAt(freeze("short", "0 0 10 * * ?", "90s", ZoneOffset.UTC), "2026-11-22T10:00:10Z"));
        assertEquals("Freeze/incident until the Freeze is removed", describeAt(OPEN_ENDED, "2026-11-22T10:00:00Z"));
    }

    @Test
    void aDenseScheduleWithALongWindowIsStillCheap() {
        // 60h of a per-second schedule would be 216,000 fire times to walk without the widening look-back.
        Freeze everySecond = freeze("busy", "* * * * * ?", "60h", ZoneOffset.UTC);
        Instant now = Instant.parse("2026-11-22T10:30:15Z");
        assertTimeout(Duration.ofSeconds(10), () -> {
            for (int i = 0; i < 100; i++) {
                assertEquals(Optional.of(new FreezeWindow.Window(now, now.plus(Duration.ofHours(60)))), FreezeWindow.openAt(everySecond, now));
            }
        });
    }

    static String describeAt(Freeze f, String now) {
        return FreezeWindow.describe(f, FreezeWindow.openAt(f, Instant.parse(now)).orElseThrow());
    }
}
