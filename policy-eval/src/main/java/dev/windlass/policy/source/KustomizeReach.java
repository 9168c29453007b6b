package dev.windlass.policy.source;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * What {@code kustomize build <folder>} reaches in a snapshot: the folder, and every folder and file its kustomization
 * names (resources, bases, components, patches, generators' files, CRDs, configurations, transformers, replacements,
 * Helm chart homes and values files, in both spellings of the Helm generator), and every file, chart home and chart
 * repository that the configs of its generators, transformers and validators name (as files, or inline), followed
 * through every kustomization it reaches. A reference out of the repo, or a {@code file:} URL, is refused here, before
 * the tool runs, at {@code path:line:col}; a remote one (a Git URL, a chart repository) unless remote sources are
 * allowed. These checks give clear errors; the render sandbox is what keeps a spelling they miss from reading the host.
 */
public final class KustomizeReach {

    public static final List<String> FILE_NAMES = List.of("kustomization.yaml", "kustomization.yml", "Kustomization");

    private KustomizeReach() {}

    /** The kustomization file in {@code folder}, or null when it has none. */
    public static String kustomization(SortedMap<String, String> files, String folder) {
        for (String name : FILE_NAMES) {
            String path = folder.isEmpty() ? name : folder + "/" + name;
            if (files.containsKey(path)) return path;
        }
        return null;
    }

    public static Reach of(SortedMap<String, String> files, java.util.function.Function<String, byte[]> read, String folder, boolean allowRemote) {
        SortedMap<String, String> reached = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        List<String> remotes = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> folders = new ArrayDeque<>(List.of(folder));
        while (!folders.isEmpty()) {
            String dir = folders.pop();
            if (!seen.add(dir)) continue;
            reached.putAll(Reach.under(files, dir));
            String k = kustomization(files, dir);
            if (k == null) continue;
            String text = new String(read.apply(k), StandardCharsets.UTF_8);
            Object doc;
            try {
                doc = new Yaml(new SafeConstructor(limits())).load(text);
            } catch (RuntimeException e) {
                continue;  // kustomize reports the file itself, with its own words
            }
            if (!(doc instanceof Map<?, ?> m)) continue;
            List<Ref> refs = new ArrayList<>(references(m).stream().map(Ref::path).toList());
            refs.addAll(chartRepositories(m));
            refs.addAll(configReferences(m, dir, files, read));
            for (Ref ref : refs) {
                java.util.function.Supplier<String> at = () -> k + ":" + position(text, ref.value());  // only for a problem: a scan of the file
                if (ref.value().regionMatches(true, 0, "file:", 0, 5)) {
                    problems.add(at.get() + ": " + ref.value() + " is a file URL, which a render never follows; name a path in the repo instead");
                    continue;
                }
                if (ref.remote() || remote(ref.value())) {
                    if (!allowRemote) {
                        problems.add(at.get() + ": " + (ref.remote() ? "chart repository " : "remote base ") + ref.value() + " is not allowed: remote"
                                + " sources need the engine's --render-allow=remote-bases and Settings spec.render.allowRemoteBases: true");
                    } else {
                        remotes.add(ref.value());
                    }
                    continue;
                }
                String target = Reach.resolve(dir, ref.value());
                if (target == null) {
                    problems.add(at.get() + ": " + ref.value() + " leads out of the repo; a kustomization may only name files and folders in it");
                    continue;
                }
                if (files.containsKey(target)) reached.put(target, files.get(target));
                else if (!Reach.under(files, target).isEmpty()) folders.push(target);
            }
        }
        return new Reach(reached, problems, remotes);
    }

    /** A value a kustomization names: a path of the repo, or a chart repository's URL (remote). */
    record Ref(String value, boolean remote) {
        static Ref path(String value) { return new Ref(value, false); }
    }

    /** {@code line:col} of the first place {@code value} is written in {@code text}; {@code 1:1} when it is not there as written. */
    static String position(String text, String value) {
        int i = text.indexOf(value);
        if (i < 0) return "1:1";
        int line = 1;
        int start = 0;
        for (int j = 0; j < i; j++) {
            if (text.charAt(j) == '\n') {
                line++;
                start = j + 1;
            }
        }
        return line + ":" + (i - start + 1);
    }

    /** A kustomization is small: these bound what a hostile one can make this reading cost. */
    private static LoaderOptions limits() {
        LoaderOptions o = new LoaderOptions();
        o.setMaxAliasesForCollections(20);
        o.setNestingDepthLimit(50);
        o.setCodePointLimit(1 << 20);
        o.setAllowRecursiveKeys(false);
        return o;
    }

    /** Every path a kustomization names. Inline patches and generators' literals are not paths. */
    public static List<String> references(Map<?, ?> k) {
        List<String> out = new ArrayList<>();
        for (String key : List.of("resources", "bases", "components", "crds", "configurations", "generators", "transformers",
                "validators", "patchesStrategicMerge")) {
            strings(k.get(key), out);
        }
        for (String key : List.of("patches", "patchesJson6902", "replacements")) {
            if (k.get(key) instanceof List<?> items) {
                for (Object i : items) if (i instanceof Map<?, ?> m && m.get("path") instanceof String p) out.add(p);
            }
        }
        for (String key : List.of("configMapGenerator", "secretGenerator")) {
            if (!(k.get(key) instanceof List<?> items)) continue;
            for (Object i : items) {
                if (!(i instanceof Map<?, ?> m)) continue;
                List<String> files = new ArrayList<>();
                strings(m.get("files"), files);
                strings(m.get("envs"), files);
                if (m.get("env") instanceof String e) files.add(e);
                for (String f : files) out.add(f.contains("=") ? f.substring(f.indexOf('=') + 1) : f);
            }
        }
        if (k.get("openapi") instanceof Map<?, ?> o && o.get("path") instanceof String p) out.add(p);
        boolean charts = k.get("helmCharts") instanceof List<?> || k.get("helmChartInflationGenerator") instanceof List<?>;
        if (k.get("helmGlobals") instanceof Map<?, ?> g) {
            if (g.get("chartHome") instanceof String home) out.add(home);
            else if (charts) out.add("charts");
            if (g.get("configHome") instanceof String config) out.add(config);
        } else if (charts) {
            out.add("charts");
        }
        if (k.get("helmCharts") instanceof List<?> items) {
            for (Object c : items) {
                if (!(c instanceof Map<?, ?> m)) continue;
                if (m.get("valuesFile") instanceof String v) out.add(v);
                strings(m.get("additionalValuesFiles"), out);
            }
        }
        // The deprecated spelling of the same generator: its chart home, values file, Helm home and binary are paths too.
        if (k.get("helmChartInflationGenerator") instanceof List<?> items) {
            for (Object c : items) {
                if (!(c instanceof Map<?, ?> m)) continue;
                for (String key : List.of("chartHome", "values", "helmHome", "helmBin")) if (m.get(key) instanceof String v) out.add(v);
            }
        }
        out.removeIf(s -> s.contains("\n") || s.isBlank());
        return out;
    }

    /** The keys under which a builtin generator's or transformer's config names files, and those naming a chart repository. */
    private static final Set<String> CONFIG_PATH_KEYS = Set.of("path", "paths", "files", "envs", "env", "chartHome", "configHome", "valuesFile",
            "additionalValuesFiles", "helmHome", "helmBin");
    private static final Set<String> CONFIG_REMOTE_KEYS = Set.of("repo", "chartRepoUrl");

    /**
     * What the configs named under {@code generators}, {@code transformers} and {@code validators} name: each entry is a
     * file of the repo holding configs, or a config written inline, and a builtin's config (a Helm chart inflator, a patch,
     * a ConfigMap generator) names files, chart homes and chart repositories like the kustomization's own fields do.
     * Chart repositories are remote sources; the rest are paths from the kustomization's folder.
     */
    static List<Ref> configReferences(Map<?, ?> k, String dir, SortedMap<String, String> files, java.util.function.Function<String, byte[]> read) {
        List<Ref> out = new ArrayList<>();
        for (String key : List.of("generators", "transformers", "validators")) {
            if (!(k.get(key) instanceof List<?> items)) continue;
            for (Object item : items) {
                if (!(item instanceof String entry)) continue;
                String text = null;
                if (entry.contains("\n") || entry.contains("kind:")) {
                    text = entry;
                } else {
                    String target = Reach.resolve(dir, entry);
                    if (target != null && files.containsKey(target)) text = new String(read.apply(target), StandardCharsets.UTF_8);
                }
                if (text == null) continue;
                try {
                    for (Object config : new Yaml(new SafeConstructor(limits())).loadAll(text)) collect(config, out, 0);
                } catch (RuntimeException e) {
                    // kustomize reports a config it cannot read, with its own words
                }
            }
        }
        return out;
    }

    private static void collect(Object node, List<Ref> out, int depth) {
        if (depth > 20) return;
        if (node instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = String.valueOf(e.getKey());
                if (CONFIG_REMOTE_KEYS.contains(key) && e.getValue() instanceof String url && !url.isBlank()) {
                    out.add(new Ref(url, true));
                } else if (CONFIG_PATH_KEYS.contains(key)) {
                    List<String> values = new ArrayList<>();
                    if (e.getValue() instanceof String v) values.add(v);
                    strings(e.getValue(), values);
                    for (String v : values) {
                        String p = v.contains("=") && (key.equals("files") || key.equals("envs")) ? v.substring(v.indexOf('=') + 1) : v;
                        if (!p.isBlank() && !p.contains("\n")) out.add(Ref.path(p));
                    }
                } else {
                    collect(e.getValue(), out, depth + 1);
                }
            }
        } else if (node instanceof List<?> l) {
            for (Object i : l) collect(i, out, depth + 1);
        }
    }

    private static void strings(Object value, List<String> out) {
        if (value instanceof List<?> items) for (Object i : items) if (i instanceof String s) out.add(s);
    }

    /** The chart repositories a kustomization's Helm charts are pulled from, in either spelling of the generator. */
    static List<Ref> chartRepositories(Map<?, ?> k) {
        List<Ref> out = new ArrayList<>();
        for (String key : List.of("helmCharts", "helmChartInflationGenerator")) {
            if (!(k.get(key) instanceof List<?> items)) continue;
            for (Object c : items) {
                if (!(c instanceof Map<?, ?> m)) continue;
                for (String field : List.of("repo", "chartRepoUrl")) {
                    if (m.get(field) instanceof String url && !url.isBlank()) out.add(new Ref(url, true));
                }
            }
        }
        return out;
    }

    /** A Git URL or a hosted repository, as kustomize reads remote bases. */
    public static boolean remote(String ref) {
        return ref.contains("://") || ref.startsWith("git@") || ref.startsWith("github.com/") || ref.startsWith("gitlab.com/")
                || ref.startsWith("bitbucket.org/") || ref.contains("?ref=") || ref.contains(".git//");
    }
}
