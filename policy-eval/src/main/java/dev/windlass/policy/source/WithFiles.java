package dev.windlass.policy.source;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * A snapshot with some files written over or added (a Flux Kustomization's kustomization file, as Flux writes it before
 * it builds): what a render reads. The files' content ids are their blob ids, as for the others, and its commit is the
 * snapshot's with a digest of those files, so what is cached by commit is never mixed up with the snapshot itself.
 */
public final class WithFiles implements Snapshot {
    private final Snapshot base;
    private final Map<String, String> texts;
    private final SortedMap<String, String> files;
    private final String commit;

    public WithFiles(Snapshot base, Map<String, String> texts) {
        this.base = base;
        this.texts = Map.copyOf(texts);
        SortedMap<String, String> all = new TreeMap<>(base.files());
        StringBuilder ids = new StringBuilder();
        new TreeMap<>(texts).forEach((path, text) -> {
            String id = MapSnapshot.blobId(text.getBytes(StandardCharsets.UTF_8));
            all.put(path, id);
            ids.append(path).append(' ').append(id).append('\n');
        });
        this.files = Collections.unmodifiableSortedMap(all);
        this.commit = base.commit() + "+" + MapSnapshot.blobId(ids.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 12);
    }

    /** {@code base} itself when there is nothing to write over it. */
    public static Snapshot of(Snapshot base, Map<String, String> texts) { return texts.isEmpty() ? base : new WithFiles(base, texts); }

    @Override public String commit() { return commit; }

    @Override public SortedMap<String, String> files() { return files; }

    @Override public byte[] read(String path) {
        String text = texts.get(path);
        return text != null ? text.getBytes(StandardCharsets.UTF_8) : base.read(path);
    }

    @Override public SortedSet<String> symlinks() { return base.symlinks(); }

    @Override public String author() { return base.author(); }
}
