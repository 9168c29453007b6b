package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The YAML reader on a corpus of malformed YAML (alias bombs, recursive aliases, deep nesting, bad indentation, tabs,
 * unterminated quotes, binary junk, BOMs, duplicate keys, values that are not what their tags say...), each file whole
 * and cut short at every tenth of its length, as an unfinished edit leaves it.
 * Whatever the file, the reader returns: it never throws, every error is at a place inside the file, and no error quotes
 * more of the file than a short excerpt. As an application's manifest, a corpus file holds only that application.
 * <p>
 * The corpus is {@link YamlReaderFuzzTest}'s seed inputs ({@code src/test/resources/dev/windlass/policy/parse/
 * YamlReaderFuzzTestInputs}, where Jazzer looks for them), with any crashing input a fuzzing run found saved in a
 * subfolder named after its fuzz test. The fuzz test checks the same properties on inputs it generates from these.
 */
class YamlCorpusTest {

    static final Path CORPUS = corpusFolder();

    /** The manifest of application {@code web}, in a repo where application {@code api} is healthy. */
    static final String MANIFEST = "apps/web/manifests/m.yaml";

    /** The longest run of a file's text an error may hold: an excerpt, and a few characters around it. */
    static final int LONGEST_QUOTE = Excerpt.MAX_CHARS + 10;

    static Stream<Arguments> files() {
        List<Arguments> cases = new ArrayList<>();
        for (String name : corpus()) {
            byte[] whole = read(name);
            cases.add(Arguments.of(name, whole.length, whole));
            for (int tenth = 1; tenth < 10; tenth++) {
                int cut = whole.length * tenth / 10;
                cases.add(Arguments.of(name, cut, Arrays.copyOf(whole, cut)));
            }
        }
        return cases.stream();
    }

    static Stream<Arguments> wholeFiles() {
        return corpus().stream().map(name -> Arguments.of(name, read(name)));
    }

    @Test
    void theCorpusIsThere() {
        assertTrue(corpus().size() >= 50, corpus().toString());
    }

    @ParameterizedTest(name = "{0} up to byte {1}")
    @MethodSource("files")
    void everyErrorIsInTheFileAndQuotesNoMoreThanAnExcerpt(String name, int length, byte[] bytes) {
        YamlFile f = YamlReader.read("apps/web/m.yaml", "id", bytes);
        for (Diagnostic d : f.diagnostics()) {
            assertEquals("apps/web/m.yaml", d.location().path());
            assertInsideAndShort(d, bytes);
        }
    }

    /** {@code d} is at a place inside {@code bytes} (as UTF-8 text), and quotes no more of it than an excerpt. */
    static void assertInsideAndShort(Diagnostic d, byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertInside(d.toString(), d.location(), text);
        String quote = longestQuote(d.message(), text);
        assertTrue(quote.length() <= LONGEST_QUOTE, d + " quotes " + quote.length() + " characters of the file");
    }

    /** {@code at} is a line of {@code text} and a column of that line, or just past its end. */
    static void assertInside(String what, SourceLocation at, String text) {
        List<String> lines = lines(text);
        assertTrue(at.line() >= 1 && at.line() <= lines.size(), what + " is outside the file's " + lines.size() + " lines");
        String line = lines.get(at.line() - 1);
        assertTrue(at.column() >= 1 && at.column() <= line.codePointCount(0, line.length()) + 1, what + " is outside its line");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wholeFiles")
    void asAManifestTheFileHoldsOnlyItsApplication(String name, byte[] bytes) {
        DesiredState s = besideAHealthyApp(bytes);
        assertTrue(s.apps().get("api").valid(), s.apps().get("api").diagnostics().toString());
    }

    /** A repo with {@code manifest} at {@link #MANIFEST}, beside the healthy application {@code api}. */
    static DesiredState besideAHealthyApp(byte[] manifest) {
        Map<String, byte[]> files = new TreeMap<>();
        files.put("clusters/eu-1.yaml", utf8(RepoParserTest.CLUSTER));
        files.put("apps/web/app.yaml", utf8(RepoParserTest.APP));
        files.put(MANIFEST, manifest);
        files.put("apps/api/app.yaml", utf8(RepoParserTest.APP.replace("name: web", "name: api").replace("namespace: web", "namespace: api")));
        files.put("apps/api/manifests/d.yaml", utf8(RepoParserTest.DEPLOY));
        return RepoParser.parse(new MapSnapshot("0000000000000000000000000000000000000003", files));
    }

    /** Lines as SnakeYAML counts them: \n, \r\n, \r, NEL, LS and PS each end one. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                lines.add(text.substring(start, i));
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
                start = i + 1;
            }
        }
        lines.add(text.substring(start));
        return lines;
    }

    /** The longest piece of {@code message} that is also in {@code text}, up to one character past the allowed length. */
    static String longestQuote(String message, String text) {
        String longest = "";
        for (int i = 0; i < message.length(); i++) {
            for (int j = i + longest.length() + 1; j <= Math.min(message.length(), i + LONGEST_QUOTE + 1); j++) {
                if (!text.contains(message.substring(i, j))) break;
                longest = message.substring(i, j);
            }
        }
        return longest;
    }

    static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    static List<String> corpus() {
        try (Stream<Path> files = Files.walk(CORPUS)) {
            return files.filter(Files::isRegularFile).map(p -> CORPUS.relativize(p).toString().replace('\\', '/')).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] read(String name) {
        try {
            return Files.readAllBytes(CORPUS.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path corpusFolder() {
        try {
            return Path.of(YamlCorpusTest.class.getResource("YamlReaderFuzzTestInputs").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
