package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The parameter sets of an ApplicationSet {@code git} generator with {@code files}, as Argo CD makes them: each JSON or
 * YAML file of this repo (at the commit read) that an include pattern matches and no exclude pattern does gives one set,
 * or, when it holds a list, one set per element. A set holds the file's keys flattened with dots ({@code cluster.address},
 * list items by their index, {@code tags.0}), each value as Go prints it, and the file's place: {@code path} (its folder),
 * {@code path.basename}, {@code path.filename}, {@code path.basenameNormalized}, {@code path.filenameNormalized} and
 * {@code path[N]}, each under {@code <pathParamPrefix>.} when one is given.
 *
 * <p>Bounds, each an error at its place: a file of at most {@value #MAX_FILE_BYTES} bytes, at most
 * {@value #MAX_DEPTH} levels of nesting and {@value #MAX_KEYS} parameters per set, and at most
 * {@link ArgoApplicationSetReader#MAX_APPLICATIONS} files (each gives one set at least).
 */
final class ArgoGitFiles {
    static final int MAX_FILE_BYTES = 256 * 1024;
    static final int MAX_DEPTH = 10;
    static final int MAX_KEYS = 500;
    private static final Pattern NOT_DNS = Pattern.compile("[^-a-z0-9.]");

    private ArgoGitFiles() {}

    /** A file pattern as a regular expression: {@code *} within one name, {@code **} across folders (none too); null when not valid. */
    static String regex(String glob) {
        String anyFolders = "\u0000";
        String any = "\u0001";
        String r = Globs.regex(glob.replace("**/", anyFolders).replace("**", any));
        if (r == null) return null;
        return r.replace(".*", "[^/]*").replace(Pattern.quote(anyFolders), "(?:.*/)?").replace(Pattern.quote(any), ".*");
    }

    /** Argo CD's {@code utils.SanitizeName}: lower case, what is no DNS character a '-', at most 253 characters, no '-' or '.' at the ends. */
    static String normalized(String name) {
        String n = NOT_DNS.matcher(name.toLowerCase(Locale.ROOT)).replaceAll("-");
        if (n.length() > 253) n = n.substring(0, 253);
        int start = 0;
        int end = n.length();
        while (start < end && (n.charAt(start) == '-' || n.charAt(start) == '.')) start++;
        while (end > start && (n.charAt(end - 1) == '-' || n.charAt(end - 1) == '.')) end--;
        return n.substring(start, end);
    }

    /**
     * The sets of the file {@code path} (its {@code bytes}); what is wrong with it is said in {@code out} at its place in
     * the file, and then it gives none.
     */
    static List<ArgoParams> sets(String path, byte[] bytes, String pathParamPrefix, List<Diagnostic> out) {
        int before = out.size();
        Node doc = YamlReader.firstDocument(path, bytes, MAX_FILE_BYTES, out);
        if (doc == null || out.size() > before) return List.of();
        List<MappingNode> objects = new ArrayList<>();
        if (doc instanceof ScalarNode s && s.getTag().equals(Tag.NULL)) {
            objects.add(null);  // an empty file: one set of its place only, as in Argo CD
        } else if (doc instanceof MappingNode m) {
            objects.add(m);
        } else if (doc instanceof SequenceNode q) {
            for (Node item : q.getValue()) {
                if (item instanceof MappingNode m) objects.add(m);
                else out.add(Diagnostic.error(YamlReader.at(path, item.getStartMark()), "ApplicationSet git file: each element of the list"
                        + " this file holds must be a mapping (key: value), a set of parameters; make it one"));
            }
            if (q.getValue().isEmpty()) objects.add(null);
        } else {
            out.add(Diagnostic.error(YamlReader.at(path, doc.getStartMark()), "ApplicationSet git file must hold a mapping (key: value) or a"
                    + " list of them, each a set of parameters; it holds a single value"));
        }
        if (out.size() > before) return List.of();
        YamlReader.Values values = new YamlReader.Values(YamlReader.options());
        List<ArgoParams> sets = new ArrayList<>();
        for (MappingNode object : objects) {
            Map<String, String> params = new TreeMap<>();
            if (object != null) flatten(path, object, "", 1, params, values, out);
            if (out.size() > before) return List.of();
            if (params.size() > MAX_KEYS) {
                out.add(Diagnostic.error(YamlReader.at(path, object.getStartMark()), "ApplicationSet git file: this set has " + params.size()
                        + " parameters, more than Windlass reads from one (" + MAX_KEYS + "); make it smaller"));
                return List.of();
            }
            params.putAll(place(path, pathParamPrefix));
            Map<String, Object> nested = new java.util.LinkedHashMap<>();
            if (object != null) {
                @SuppressWarnings("unchecked")
                Map<String, Object> read = (Map<String, Object>) values.of(object);
                nested.putAll(read);
            }
            Map<String, Object> at = nestedPlace(path);
            if (pathParamPrefix == null || pathParamPrefix.isEmpty()) nested.put("path", at);
            else nested.put(pathParamPrefix, Map.of("path", at));
            sets.add(new ArgoParams(params, nested));
        }
        return sets;
    }

    /** The file's place as goTemplate reads it: {@code .path.path}, {@code .path.basename}, ..., {@code .path.segments}. */
    private static Map<String, Object> nestedPlace(String file) {
        int slash = file.lastIndexOf('/');
        String folder = slash < 0 ? "." : file.substring(0, slash);
        String filename = file.substring(slash + 1);
        String basename = folder.substring(folder.lastIndexOf('/') + 1);
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("path", folder);
        out.put("basename", basename);
        out.put("filename", filename);
        out.put("basenameNormalized", normalized(basename));
        out.put("filenameNormalized", normalized(filename));
        out.put("segments", List.of(folder.split("/")));
        return out;
    }

    /** The parameters of the file's place, as Argo CD names them. */
    private static Map<String, String> place(String file, String pathParamPrefix) {
        String name = pathParamPrefix == null || pathParamPrefix.isEmpty() ? "path" : pathParamPrefix + ".path";
        int slash = file.lastIndexOf('/');
        String folder = slash < 0 ? "." : file.substring(0, slash);
        String filename = file.substring(slash + 1);
        String basename = folder.substring(folder.lastIndexOf('/') + 1);
        Map<String, String> out = new TreeMap<>();
        out.put(name, folder);
        out.put(name + ".basename", basename);
        out.put(name + ".filename", filename);
        out.put(name + ".basenameNormalized", normalized(basename));
        out.put(name + ".filenameNormalized", normalized(filename));
        String[] parts = folder.split("/");
        for (int i = 0; i < parts.length; i++) if (!parts[i].isEmpty()) out.put(name + "[" + i + "]", parts[i]);
        return out;
    }

    private static void flatten(String path, Node node, String prefix, int depth, Map<String, String> params, YamlReader.Values values,
            List<Diagnostic> out) {
        if (depth > MAX_DEPTH) {
            out.add(Diagnostic.error(YamlReader.at(path, node.getStartMark()), "ApplicationSet git file: nested more than " + MAX_DEPTH
                    + " levels deep, more than Windlass reads; flatten it"));
            return;
        }
        if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode k)) {
                    out.add(Diagnostic.error(YamlReader.at(path, t.getKeyNode().getStartMark()), "ApplicationSet git file: a key must be text"));
                    return;
                }
                flatten(path, t.getValueNode(), child(prefix, k.getValue()), depth + 1, params, values, out);
                if (params.size() > MAX_KEYS) return;
            }
        } else if (node instanceof SequenceNode q) {
            for (int i = 0; i < q.getValue().size(); i++) {
                flatten(path, q.getValue().get(i), child(prefix, String.valueOf(i)), depth + 1, params, values, out);
                if (params.size() > MAX_KEYS) return;
            }
        } else {
            try {
                params.put(prefix, text(values.of(node)));
            } catch (RuntimeException e) {
                out.add(Diagnostic.error(YamlReader.at(path, node.getStartMark()), "ApplicationSet git file: this value cannot be read as "
                        + node.getTag().getValue() + "; fix the value or remove its tag"));
            }
        }
    }

    private static String child(String prefix, String key) { return prefix.isEmpty() ? key : prefix + "." + key; }

    /** A scalar as Go's {@code fmt.Sprintf("%v")} prints what Argo CD reads it as (numbers are JSON numbers, null is {@code <nil>}). */
    static String text(Object value) {
        if (value == null) return "<nil>";
        if (value instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) return String.valueOf(value);
            BigDecimal b = BigDecimal.valueOf(d).stripTrailingZeros();
            return Math.abs(d) < 1e21 ? b.toPlainString() : String.valueOf(value);
        }
        if (value instanceof byte[] bytes) return java.util.Base64.getEncoder().encodeToString(bytes);
        return String.valueOf(value);
    }
}
