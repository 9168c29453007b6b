package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.windlass.policy.revert.RevertRecord;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code status/reverts.yaml}: what was offered survives a restart, and a word this engine does not know is refused. */
class RevertsFileTest {
    static final List<RevertRecord> OFFERED = List.of(
            new RevertRecord("web", "58bd4fccbc5b", "1d7b01005e22", "windlass/revert/web-58bd4fc", RevertRecord.State.Opened, 1,
                    "https://github.example.com/acme/fleet/pull/1", "", Instant.parse("2026-11-21T09:10:00Z")),
            new RevertRecord("api", "77aa00bb11cc", "0a0b0c0d0e0f", "windlass/revert/api-77aa00b", RevertRecord.State.Failed, 0, "",
                    "GitHub answered 422: Validation Failed", Instant.parse("2026-11-21T09:11:00Z")));

    @Test
    void whatWasOfferedSurvivesARoundTrip() throws Exception {
        byte[] file = StatusFiles.revertsFile(OFFERED);
        assertEquals(OFFERED, StatusFiles.readReverts(file));
        assertEquals(List.of(), StatusFiles.readReverts(null));
    }

    @Test
    void anUnknownStateIsRefused() {
        String file = new String(StatusFiles.revertsFile(OFFERED), StandardCharsets.UTF_8).replace("state: Opened", "state: Merged");
        UncheckedIOException refused = assertThrows(UncheckedIOException.class, () -> StatusFiles.readReverts(file.getBytes(StandardCharsets.UTF_8)));
        assertEquals("status file status/reverts.yaml cannot be read: state: 'Merged' is not one of Opened, Failed", refused.getMessage());
    }
}
