package dev.windlass.policy.parse;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Parsed files by path and content id, so a pass re-parses only the files whose content changed.
 * A memo, not state: dropping it changes speed, never results.
 */
public final class ParseCache {
    private Map<String, YamlFile> files = new HashMap<>();
    private int parsedLastPass;

    YamlFile get(String path, String contentId, Supplier<byte[]> content) {
        String key = path + "@" + contentId;
        YamlFile f = files.get(key);
        if (f == null) {
            f = YamlReader.read(path, contentId, content.get());
            files.put(key, f);
            parsedLastPass++;
        }
        return f;
    }

    /** Starts a pass: forgets files that are not in the new commit. */
    void beginPass(Map<String, String> current) {
        parsedLastPass = 0;
        Map<String, YamlFile> kept = new HashMap<>();
        current.forEach((path, id) -> {
            YamlFile f = files.get(path + "@" + id);
            if (f != null) kept.put(path + "@" + id, f);
        });
        files = kept;
    }

    /** How many files the last pass actually parsed (the rest came from the cache). */
    public int parsedLastPass() { return parsedLastPass; }

    public Set<String> cachedKeys() { return Set.copyOf(files.keySet()); }
}
