package dev.windlass.engine.migrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The documents of a YAML file as the text that writes each one ({@code ---} lines at the start of a line separate
 * them), so that one document can be replaced or left out and every other kept byte for byte, comments and all.
 */
final class YamlChunks {
    /** One document: its text (without the separator line before it) and the file's line it starts on (1-based). */
    record Chunk(int firstLine, int lastLine, String text) {
        @SuppressWarnings("unchecked")
        Map<String, Object> value() {
            try {
                Object o = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
                return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
            } catch (RuntimeException e) {
                return Map.of();
            }
        }

        String kind() { return value().get("kind") instanceof String s ? s : ""; }

        String apiVersion() { return value().get("apiVersion") instanceof String s ? s : ""; }
    }

    private YamlChunks() {}

    static List<Chunk> of(String text) {
        List<Chunk> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        StringBuilder b = new StringBuilder();
        int start = 1;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.equals("---") || line.startsWith("--- ") || line.equals("---\r")) {
                out.add(new Chunk(start, i, b.toString()));
                b.setLength(0);
                start = i + 2;
                continue;
            }
            b.append(line);
            if (i < lines.length - 1) b.append('\n');
        }
        out.add(new Chunk(start, lines.length, b.toString()));
        return out;
    }

    /** Whether a chunk holds no document (only blank lines and comments). */
    static boolean blank(String text) {
        return text.lines().allMatch(l -> l.isBlank() || l.stripLeading().startsWith("#"));
    }

    /** The chunks joined again, leaving out the blank ones; "" when none is left. */
    static String join(List<String> texts) {
        List<String> kept = texts.stream().filter(t -> !blank(t)).map(t -> t.endsWith("\n") ? t : t + "\n").toList();
        return String.join("---\n", kept);
    }
}
