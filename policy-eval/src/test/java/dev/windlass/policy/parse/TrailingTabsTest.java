package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tabs where the YAML reader of Kubernetes (sigs.k8s.io/yaml v1.6.0, go-yaml v2) accepts them, with the values it
 * reads; and the tabs it refuses, refused here too. Each expectation was checked against that reader.
 */
class TrailingTabsTest {

    static YamlFile read(String yaml) {
        return YamlReader.read("t.yaml", "id", yaml.getBytes(StandardCharsets.UTF_8));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of("key: \"value\"\t\n", Map.of("key", "value")),
                Arguments.of("key: 'value'\t\n", Map.of("key", "value")),
                Arguments.of("key: \"value\" \t # comment\n", Map.of("key", "value")),
                Arguments.of("key:\tvalue\n", Map.of("key", "value")),
                Arguments.of("key: [1,\t2]\t\n", Map.of("key", List.of(1, 2))),
                Arguments.of("key: {a: b}\t\t\n", Map.of("key", Map.of("a", "b"))),
                Arguments.of("key:\t\n  a: b\n", Map.of("key", Map.of("a", "b"))),
                Arguments.of("key: &anchor\tvalue\nother: *anchor\t\n", Map.of("key", "value", "other", "value")),
                Arguments.of("key: !!str\t1\n", Map.of("key", "1")),
                Arguments.of("key: |\t\n  text\n", Map.of("key", "text\n")),
                Arguments.of("? key\t\n: value\n", Map.of("key", "value")),
                Arguments.of("a: \"x\"\t\nb: 'y'\t\n", Map.of("a", "x", "b", "y")),
                // A tab inside a value is part of it.
                Arguments.of("key: \"x\ty\"\t\n", Map.of("key", "x\ty")),
                Arguments.of("key: x\ty\t\n", Map.of("key", "x\ty")),
                Arguments.of("key: |\n  a\tb\t\n", Map.of("key", "a\tb\t\n")));
    }

    @ParameterizedTest
    @MethodSource("accepted")
    void aTabKubernetesAcceptsIsAccepted(String yaml, Map<String, Object> value) {
        YamlFile f = read(yaml);
        assertEquals(List.of(), f.diagnostics(), yaml);
        assertEquals(value, f.docs().get(0).value());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("\tkey: value\n", "t.yaml:1:1"),
                Arguments.of("key: value\n\t\n", "t.yaml:2:1"),
                Arguments.of("key:\n\t- a\n", "t.yaml:2:1"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void aTabInIndentationIsRefusedAsKubernetesRefusesIt(String yaml, String at) {
        List<Diagnostic> errors = read(yaml).diagnostics();
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).toString().startsWith(at + ": invalid YAML: found character '\\t(TAB)' that cannot start any token"), errors.toString());
    }

    @Test
    void aManifestWithTrailingTabsIsPlannedAsWritten() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER, "apps/web/app.yaml", RepoParserTest.APP,
                "apps/web/manifests/cm.yaml", "apiVersion: v1\t\nkind: ConfigMap\nmetadata: {name: settings}\t\ndata:\n  mode: \"fast\"\t\n  list: \"[a]\"\t\t\n"));
        assertEquals(List.of(), s.diagnostics());
        assertEquals(Map.of("mode", "fast", "list", "[a]"), s.apps().get("web").manifests().stream()
                .filter(m -> m.ref().kind().equals("ConfigMap")).findFirst().orElseThrow().body().get("data"));
    }
}
