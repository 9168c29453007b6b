package dev.windlass.policy.parse;

import static dev.windlass.policy.parse.YamlCorpusTest.MANIFEST;
import static dev.windlass.policy.parse.YamlCorpusTest.assertInside;
import static dev.windlass.policy.parse.YamlCorpusTest.assertInsideAndShort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz tests of the YAML reader (Jazzer): whatever bytes a file holds, reading it returns documents or errors, never an
 * exception or a {@link StackOverflowError}; every error is at a place inside the file and quotes no more of it than an
 * excerpt; read as one application's manifest, the file holds only that application; and reading it ends within
 * {@link #SECONDS} seconds.
 * <p>
 * Seeds: the malformed-YAML corpus in {@code src/test/resources/dev/windlass/policy/parse/YamlReaderFuzzTestInputs}
 * (shared with {@link YamlCorpusTest}). A plain {@code mvn test} runs each fuzz test once on every seed (Jazzer's
 * regression mode), in a few seconds. To fuzz, one fuzz test per run, for five minutes unless told otherwise:
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -pl policy-eval test -Dtest='YamlReaderFuzzTest#readerReturnsDocumentsOrErrorsInsideTheInput'
 * JAZZER_FUZZ=1 mvn -B -pl policy-eval test -Dtest='YamlReaderFuzzTest#asAManifestTheInputHoldsOnlyItsApplication'
 * </pre>
 * ({@code -Djazzer.max_duration=1h} for longer). Inputs that add coverage go to {@code policy-eval/.cifuzz-corpus}
 * (not committed). A crashing input (an exception, a failed assertion, or a timeout) is saved in
 * {@code YamlReaderFuzzTestInputs/<fuzz test>/}, which Jazzer creates: give it a name that says what it is, fix the
 * reader and commit it, so every build, {@link YamlCorpusTest} included, runs it again.
 */
class YamlReaderFuzzTest {

    /** How long one input may take, in a build and while fuzzing (Jazzer's per-input timeout). */
    static final int SECONDS = 10;

    @FuzzTest
    @Timeout(SECONDS)
    void readerReturnsDocumentsOrErrorsInsideTheInput(byte[] bytes) {
        YamlFile f = YamlReader.read(MANIFEST, "id", bytes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        for (Diagnostic d : f.diagnostics()) {
            assertEquals(MANIFEST, d.location().path(), d.toString());
            assertInsideAndShort(d, bytes);
        }
        for (YamlDoc doc : f.docs()) {
            assertNotNull(doc.value());
            assertInside("document " + (doc.index() + 1) + " at " + doc.location(), doc.location(), text);
        }
    }

    @FuzzTest
    @Timeout(SECONDS)
    void asAManifestTheInputHoldsOnlyItsApplication(byte[] bytes) {
        DesiredState s = YamlCorpusTest.besideAHealthyApp(bytes);
        Application api = s.apps().get("api");
        assertTrue(api != null && api.valid(), String.valueOf(api == null ? s.diagnostics() : api.diagnostics()));
        List<Diagnostic> all = new ArrayList<>(s.diagnostics());
        s.apps().values().forEach(app -> all.addAll(app.diagnostics()));
        for (Diagnostic d : all) {
            if (d.location().path().equals(MANIFEST)) {
                assertInsideAndShort(d, bytes);
            } else {
                assertTrue(YamlCorpusTest.longestQuote(d.message(), new String(bytes, StandardCharsets.UTF_8)).length()
                        <= YamlCorpusTest.LONGEST_QUOTE, d + " quotes the manifest");
            }
        }
    }
}
