package dev.windlass.policy.source;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** An in-memory snapshot; content ids are computed the way Git computes blob ids. */
public final class MapSnapshot implements Snapshot {
    private final String commit;
    private final SortedMap<String, byte[]> contents;
    private final SortedMap<String, String> ids = new TreeMap<>();
    private final SortedSet<String> symlinks;

    public MapSnapshot(String commit, Map<String, byte[]> contents) {
        this(commit, contents, Set.of());
    }

    /** Files and, apart from them, the paths of symbolic links. */
    public MapSnapshot(String commit, Map<String, byte[]> contents, Set<String> symlinks) {
        this.commit = commit;
        this.contents = new TreeMap<>(contents);
        this.contents.forEach((path, bytes) -> ids.put(path, blobId(bytes)));
        this.symlinks = Collections.unmodifiableSortedSet(new TreeSet<>(symlinks));
    }

    public static MapSnapshot ofStrings(String commit, Map<String, String> files) {
        Map<String, byte[]> bytes = new TreeMap<>();
        files.forEach((p, s) -> bytes.put(p, s.getBytes(StandardCharsets.UTF_8)));
        return new MapSnapshot(commit, bytes);
    }

    @Override public String commit() { return commit; }

    @Override public SortedMap<String, String> files() { return java.util.Collections.unmodifiableSortedMap(ids); }

    @Override public SortedSet<String> symlinks() { return symlinks; }

    @Override public byte[] read(String path) {
        byte[] b = contents.get(path);
        if (b == null) throw new NoSuchElementException(path);
        return b.clone();
    }

    static String blobId(byte[] content) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(("blob " + content.length + "\0").getBytes(StandardCharsets.US_ASCII));
            return java.util.HexFormat.of().formatHex(sha1.digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
