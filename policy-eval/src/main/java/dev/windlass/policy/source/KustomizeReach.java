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
 * Helm chart homes), followed through every kustomization it reaches. A reference out of the repo is refused here,
 * before the tool runs; a remote one (a Git URL) unless Settings allow remote bases.
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
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> folders = new ArrayDeque<>(List.of(folder));
        while (!folders.isEmpty()) {
            String dir = folders.pop();
            if (!seen.add(dir)) continue;
            reached.putAll(Reach.under(files, dir));
            String k = kustomization(files, dir);
            if (k == null) continue;
            Object doc;
            try {
                doc = new Yaml(new SafeConstructor(limits())).load(new String(read.apply(k), StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                continue;  // kustomize reports the file itself, with its own words
            }
            if (!(doc instanceof Map<?, ?> m)) continue;
            for (String ref : references(m)) {
                if (remote(ref)) {
                    if (!allowRemote) {
                        problems.add(k + ": remote base " + ref + " is not allowed; Settings spec.render.allowRemoteBases: true allows it");
                    }
                    continue;
                }
                String target = Reach.resolve(dir, ref);
                if (target == null) {
                    problems.add(k + ": " + ref + " leads out of the repo; a kustomization may only name files and folders in it");
                    continue;
                }
                if (files.containsKey(target)) reached.put(target, files.get(target));
                else if (!Reach.under(files, target).isEmpty()) folders.push(target);
            }
        }
        return new Reach(reached, problems);
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
        if (k.get("helmGlobals") instanceof Map<?, ?> g && g.get("chartHome") instanceof String home) out.add(home);
        else if (k.get("helmCharts") instanceof List<?>) out.add("charts");
        if (k.get("helmCharts") instanceof List<?> charts) {
            for (Object c : charts) if (c instanceof Map<?, ?> m && m.get("valuesFile") instanceof String v) out.add(v);
        }
        out.removeIf(s -> s.contains("\n") || s.isBlank());
        return out;
    }

    private static void strings(Object value, List<String> out) {
        if (value instanceof List<?> items) for (Object i : items) if (i instanceof String s) out.add(s);
    }

    /** A Git URL or a hosted repository, as kustomize reads remote bases. */
    public static boolean remote(String ref) {
        return ref.contains("://") || ref.startsWith("git@") || ref.startsWith("github.com/") || ref.startsWith("gitlab.com/")
                || ref.startsWith("bitbucket.org/") || ref.contains("?ref=") || ref.contains(".git//");
    }
}
