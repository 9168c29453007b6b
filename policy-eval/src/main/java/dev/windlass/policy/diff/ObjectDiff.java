package dev.windlass.policy.diff;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The unified diff of one Kubernetes object, as a pull-request plan comment shows it: what applying Git would
 * change, live → Git, in block YAML. It shows the fields {@link FieldDiff} reports and nothing else: only fields
 * Git sets, list items matched by position, quantities and numbers compared by value. Server bookkeeping,
 * status and Windlass's own marks never show, and Secret values never appear, not even encoded.
 */
public final class ObjectDiff {
    static final String REDACTED = "(redacted)";
    static final String REDACTED_CHANGED = "(redacted, changed)";
    static final String REDACTED_NEW = "(redacted, new value)";

    private static final int CONTEXT = 3;
    private static final String NO_FILE = "/dev/null";

    /** Metadata only the API server sets (the same list the applier strips before writing). */
    private static final List<String> SERVER_METADATA = List.of("managedFields", "resourceVersion", "uid", "creationTimestamp",
            "generation", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds");

    /**
     * Labels Windlass stamps on every object it applies. Mirrors {@code dev.windlass.applier.kube.OwnershipMarks}
     * (MANAGED_BY, APP) in the applier module, which policy-eval cannot depend on: keep the two in step.
     */
    private static final Set<String> STAMPED_LABELS = Set.of("app.kubernetes.io/managed-by", "windlass.dev/app");

    /**
     * Annotations that are bookkeeping, not configuration: Windlass's own (OwnershipMarks LAST_APPLIED and
     * APPLIED_HASH in the applier module; keep in step) and the one kubectl leaves behind. Both "last applied"
     * annotations hold a full copy of the object, Secret data included.
     */
    private static final Set<String> STAMPED_ANNOTATIONS = Set.of("windlass.dev/last-applied", "windlass.dev/applied-hash",
            "kubectl.kubernetes.io/last-applied-configuration");

    private ObjectDiff() {}

    /**
     * The changes Git would make to one object, as a unified diff of YAML, live → Git.
     * live null = the object is created (all lines "+"); desired null = it is deleted (all lines "-").
     * Only fields Git sets are compared: the live side is projected onto the desired object's shape, so server
     * defaults and status never show. Secret values are always redacted. At most maxLines lines of hunks; the
     * rest is summarised as "… N more lines".
     * Returns "" when the projected YAML texts are equal.
     *
     * @param label    names the object in the two header lines, e.g. {@code Deployment shop/web}
     * @param maxLines how many lines of hunks (after the two header lines) to show at most; not negative
     */
    public static String unified(String label, Map<String, Object> live, Map<String, Object> desired, int maxLines) {
        if (maxLines < 0) throw new IllegalArgumentException("maxLines must not be negative: " + maxLines);
        Map<String, Object> git = desired == null ? null : withoutNoise(desired);
        Map<String, Object> cluster = live == null ? null : withoutNoise(live);
        if (isSecret(git) || isSecret(cluster)) redactSecretValues(cluster, git);

        List<String> before = cluster == null ? List.of() : yamlLines(git == null ? cluster : project("", git, cluster));
        List<String> after = git == null ? List.of() : yamlLines(git);
        if (before.equals(after)) return "";

        List<String> lines = new ArrayList<>(UnifiedDiffUtils.generateUnifiedDiff(
                cluster == null ? NO_FILE : label + " (live)", git == null ? NO_FILE : label + " (Git)",
                before, DiffUtils.diff(before, after), CONTEXT));
        if (lines.size() > 2) {
            // An empty side starts at line 0 in a unified diff; the library counts it from 1.
            if (cluster == null) lines.set(2, lines.get(2).replaceFirst("^@@ -1,0 ", "@@ -0,0 "));
            if (git == null) lines.set(2, lines.get(2).replaceFirst(" \\+1,0 @@", " +0,0 @@"));
        }

        StringBuilder out = new StringBuilder();
        int hunkLines = lines.size() - 2;
        int shown = Math.min(hunkLines, maxLines);
        for (String line : lines.subList(0, 2 + shown)) out.append(line).append('\n');
        int rest = hunkLines - shown;
        if (rest > 0) out.append("\u2026 ").append(rest).append(rest == 1 ? " more line" : " more lines").append('\n');
        return out.toString();
    }

    // ---- cleaning -----------------------------------------------------------------------------------------

    /** A deep copy without status, server-set metadata and bookkeeping labels/annotations. */
    private static Map<String, Object> withoutNoise(Map<String, Object> object) {
        Map<String, Object> copy = copyMap(object);
        copy.remove("status");
        if (copy.get("metadata") instanceof Map<?, ?> m) {
            Map<String, Object> meta = cast(m);
            SERVER_METADATA.forEach(meta::remove);
            dropKeys(meta, "labels", STAMPED_LABELS);
            dropKeys(meta, "annotations", STAMPED_ANNOTATIONS);
        }
        return copy;
    }

    /** Removes {@code keys} from the map under {@code field}, and the map itself if that emptied it. */
    private static void dropKeys(Map<String, Object> meta, String field, Set<String> keys) {
        if (!(meta.get(field) instanceof Map<?, ?> m) || m.isEmpty()) return;
        m.keySet().removeIf(k -> keys.contains(String.valueOf(k)));
        if (m.isEmpty()) meta.remove(field);
    }

    // ---- Secrets --------------------------------------------------------------------------------------------

    private static boolean isSecret(Map<String, Object> object) {
        if (object == null || !"Secret".equals(object.get("kind"))) return false;
        Object apiVersion = object.get("apiVersion");
        return apiVersion == null || "v1".equals(apiVersion);
    }

    /**
     * Replaces every value under {@code data} and {@code stringData} (on the copies) with a placeholder that
     * only tells whether it changed. Compared like FieldDiff compares them, before anything is rendered.
     */
    private static void redactSecretValues(Map<String, Object> live, Map<String, Object> desired) {
        for (String section : List.of("data", "stringData")) {
            Object liveValues = live == null ? null : live.get(section);
            Object gitValues = desired == null ? null : desired.get(section);
            if (liveValues instanceof Map<?, ?> l && gitValues instanceof Map<?, ?> g) {
                Map<String, Object> lm = cast(l);
                Map<String, Object> gm = cast(g);
                for (Map.Entry<String, Object> e : lm.entrySet()) {
                    if (e.getValue() == null) continue;
                    Object git = gm.get(e.getKey());
                    e.setValue(git == null || same(section + "." + e.getKey(), git, e.getValue()) ? REDACTED : REDACTED_CHANGED);
                }
                for (Map.Entry<String, Object> e : gm.entrySet()) {
                    if (e.getValue() == null) continue;
                    e.setValue(REDACTED_CHANGED.equals(lm.get(e.getKey())) ? REDACTED_NEW : REDACTED);
                }
            } else if (liveValues != null && gitValues != null && !same(section, gitValues, liveValues)) {
                live.put(section, redactedAll(liveValues, REDACTED_CHANGED));
                desired.put(section, redactedAll(gitValues, REDACTED_NEW));
            } else {
                if (liveValues != null) live.put(section, redactedAll(liveValues, REDACTED));
                if (gitValues != null) desired.put(section, redactedAll(gitValues, REDACTED));
            }
        }
    }

    /** A map keeps its keys, each non-null value replaced; anything else (not a map, so malformed) is replaced whole. */
    private static Object redactedAll(Object values, String placeholder) {
        if (!(values instanceof Map<?, ?> m)) return placeholder;
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v == null ? null : placeholder));
        return out;
    }

    // ---- projection -----------------------------------------------------------------------------------------

    /**
     * The live value as it would read in Git's shape: maps keep only the keys Git sets, in Git's order; lists
     * are matched item by item by position, as FieldDiff matches them (live items past the end of Git's list
     * show whole, since they would go); a value FieldDiff finds equal is rendered as Git spells it.
     */
    private static Object project(String path, Object desired, Object live) {
        if (same(path, desired, live)) return desired;
        if (desired instanceof Map<?, ?> d && live instanceof Map<?, ?> l) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : d.entrySet()) {
                String key = String.valueOf(e.getKey());
                String child = path.isEmpty() ? key : path + "." + key;
                if (l.containsKey(key)) {
                    out.put(key, project(child, e.getValue(), l.get(key)));
                } else if (same(child, e.getValue(), null)) {
                    out.put(key, e.getValue());
                }
            }
            return out;
        }
        if (desired instanceof List<?> d && live instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (int i = 0; i < l.size(); i++) out.add(i < d.size() ? project(path + "[" + i + "]", d.get(i), l.get(i)) : l.get(i));
            return out;
        }
        return live;
    }

    /** Equal by the planner's own rules ({@link FieldDiff}), so the diff shows exactly the fields the plan lists. */
    private static boolean same(String path, Object desired, Object live) {
        return FieldDiff.same(path, desired, live);
    }

    // ---- rendering ------------------------------------------------------------------------------------------

    /** Block YAML, two-space indents, list dashes indented under their key, never wrapped, no anchors. */
    private static List<String> yamlLines(Object tree) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setIndicatorIndent(2);
        options.setIndentWithIndicator(true);
        options.setWidth(Integer.MAX_VALUE);
        options.setSplitLines(false);
        options.setExplicitStart(false);
        options.setExplicitEnd(false);
        options.setDereferenceAliases(true);
        options.setLineBreak(DumperOptions.LineBreak.UNIX);
        return new Yaml(options).dump(tree).lines().toList();
    }

    // ---- copies ---------------------------------------------------------------------------------------------

    private static Map<String, Object> copyMap(Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), copy(v)));
        return out;
    }

    private static Object copy(Object value) {
        if (value instanceof Map<?, ?> m) return copyMap(m);
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object v : l) out.add(copy(v));
            return out;
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }
}
