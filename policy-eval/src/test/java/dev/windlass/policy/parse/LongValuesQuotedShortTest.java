package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Errors quote a file only in short excerpts, whatever value they are about: a name, a label, an enum value, a key.
 * Every scalar and every key of the example repository and of one policy of each kind is replaced, one at a time, by a
 * long value; no error about the result may quote more than {@link Excerpt#MAX_CHARS} characters of it.
 */
class LongValuesQuotedShortTest {

    private static final String LONG = "zq".repeat(300);
    private static final String TOO_MUCH = LONG.substring(0, Excerpt.MAX_CHARS + 2);

    @Test void noErrorQuotesALongValueInFull() throws IOException {
        Map<String, String> files = new TreeMap<>();
        MapSnapshot examples = RepoFiles.examples();
        examples.files().keySet().forEach(p -> files.put(p, new String(examples.read(p), StandardCharsets.UTF_8)));
        files.put("policies/examples.yaml", Files.readString(Path.of("src/test/resources/quoting/policies.yaml")));

        List<String> quotedInFull = new ArrayList<>();
        int variants = 0;
        for (var file : files.entrySet()) {
            if (!file.getKey().endsWith(".yaml") || file.getKey().startsWith("charts/")) continue;
            for (int[] span : scalarSpans(file.getValue())) {
                String text = file.getValue();
                Map<String, String> mutated = new TreeMap<>(files);
                mutated.put(file.getKey(), text.substring(0, span[0]) + LONG + text.substring(span[1]));
                DesiredState state = RepoParser.parse(MapSnapshot.ofStrings("0000000000000000000000000000000000000003", mutated));
                variants++;
                state.diagnostics().stream().filter(d -> d.message().contains(TOO_MUCH))
                        .forEach(d -> quotedInFull.add(file.getKey() + " at " + span[0] + ": " + d.message().replace(LONG, "<long value>")));
            }
        }
        System.out.println(variants + " variants");
        assertEquals(List.of(), quotedInFull);
    }

    /** Where each scalar of each document starts and ends in {@code text}, keys included; quoted ones with their quotes. */
    private static List<int[]> scalarSpans(String text) {
        List<int[]> spans = new ArrayList<>();
        for (Node doc : new Yaml(new LoaderOptions()).composeAll(new StringReader(text))) collect(doc, spans);
        return spans;
    }

    private static void collect(Node node, List<int[]> spans) {
        if (node instanceof ScalarNode s) {
            spans.add(new int[] {s.getStartMark().getIndex(), s.getEndMark().getIndex()});
        } else if (node instanceof SequenceNode seq) {
            seq.getValue().forEach(n -> collect(n, spans));
        } else if (node instanceof MappingNode map) {
            for (NodeTuple t : map.getValue()) {
                collect(t.getKeyNode(), spans);
                collect(t.getValueNode(), spans);
            }
        }
    }
}
