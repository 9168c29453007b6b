package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.VerifySettings.Mode;
import dev.windlass.policy.source.SignatureOutcome;
import dev.windlass.policy.source.Verification;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** status/verification.yaml is written as data and read strictly: a word or field it does not know fails closed. */
class VerificationFileTest {
    static final String A = "1a2b3c4d".repeat(5);
    static final String B = "9f8e7d6c".repeat(5);

    static Verification read(String text) throws IOException {
        return StatusFiles.readVerification(Map.of(StatusFiles.VERIFICATION, text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test void aRefusalIsWrittenAsDataWithItsSentenceAndReadBack() throws IOException {
        Verification v = new Verification(Mode.Tip, B, A, new Verification.Refusal(A, SignatureOutcome.UNKNOWN_KEY, "ABCD1234ABCD1234ABCD1234"));
        String text = new String(StatusFiles.verification("main", v), StandardCharsets.UTF_8);
        assertEquals("""
                apiVersion: windlass.dev/status/v1
                branch: main
                mode: Tip
                applying: %s
                tip: %s
                refused:
                  commit: %s
                  outcome: UNKNOWN_KEY
                  key: ABCD1234ABCD1234ABCD1234
                message: commit 1a2b3c4 is signed by an unknown key ABCD1234ABCD1234…; nothing of it is applied; still applying 9f8e7d6
                """.formatted(B, A, A), text);
        assertEquals(v, read(text));
    }

    @Test void anOutcomeThisEngineDoesNotKnowIsRefused() {
        String text = "apiVersion: windlass.dev/status/v1\\nmode: Tip\\napplying: " + B + "\ntip: " + A
                + "\nrefused: {commit: " + A + ", outcome: TRUSTED_ENOUGH}\n";
        IOException e = assertThrows(IOException.class, () -> read(text));
        assertTrue(e.getMessage().startsWith("status file status/verification.yaml cannot be read"), e.getMessage());
    }

    @Test void aModeOrFieldThisEngineDoesNotKnowIsRefused() {
        assertThrows(IOException.class, () -> read("apiVersion: windlass.dev/status/v1\nmode: Sometimes\napplying: " + B + "\n"));
        assertThrows(IOException.class, () -> read("apiVersion: windlass.dev/status/v1\nmode: Tip\napplying: " + B + "\nskip: true\n"));
        assertThrows(IOException.class, () -> read("apiVersion: windlass.dev/status/v1\napplying: " + B + "\n"));
    }
}
