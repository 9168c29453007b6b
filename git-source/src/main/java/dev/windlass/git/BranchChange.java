package dev.windlass.git;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One commit's worth of edits to a branch: files to write, paths to delete (a directory path deletes everything
 * under it), and who says why. Applied on top of whatever the branch tip is when the push happens, so the same
 * change can be re-applied after losing a race.
 */
public record BranchChange(
        Map<String, byte[]> writes, Set<String> deletes, String message, String authorName,
        String authorEmail) {

    public BranchChange {
        SortedMap<String, byte[]> copied = new TreeMap<>();
        writes.forEach((path, content) -> copied.put(checkPath(path), content.clone()));
        SortedSet<String> deleted = new TreeSet<>();
        deletes.forEach(path -> deleted.add(checkPath(path)));
        for (String path : deleted) {
            if (copied.containsKey(path)) throw new IllegalArgumentException(path + " is both written and deleted");
        }
        writes = Collections.unmodifiableSortedMap(copied);
        deletes = Collections.unmodifiableSortedSet(deleted);
        if (message == null || message.isBlank()) throw new IllegalArgumentException("commit message is empty");
        if (authorName == null || authorName.isBlank()) throw new IllegalArgumentException("author name is empty");
        if (authorEmail == null) throw new IllegalArgumentException("author email is null");
    }

    /** A change with no edits yet; add them with {@link #write} and {@link #delete}. */
    public static BranchChange of(String message, String authorName, String authorEmail) {
        return new BranchChange(new TreeMap<>(), new TreeSet<>(), message, authorName, authorEmail);
    }

    public BranchChange write(String path, byte[] content) {
        SortedMap<String, byte[]> more = new TreeMap<>(writes);
        more.put(path, content);
        return new BranchChange(more, deletes, message, authorName, authorEmail);
    }

    public BranchChange write(String path, String utf8) {
        return write(path, utf8.getBytes(StandardCharsets.UTF_8));
    }

    public BranchChange delete(String path) {
        SortedSet<String> more = new TreeSet<>(deletes);
        more.add(path);
        return new BranchChange(writes, more, message, authorName, authorEmail);
    }

    public boolean isEmpty() {
        return writes.isEmpty() && deletes.isEmpty();
    }

    private static String checkPath(String path) {
        if (path == null || path.isEmpty()) throw new IllegalArgumentException("empty path");
        for (String segment : path.split("/", -1)) {
            // Git trees cannot hold these; failing here names the path instead of a JGit internal.
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.equalsIgnoreCase(".git")
                    || segment.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("not a valid repository path: '" + path + "'");
            }
        }
        return path;
    }

    /** Writes hold byte arrays, so the generated equality would compare identities. */
    @Override public boolean equals(Object o) {
        if (!(o instanceof BranchChange other)) return false;
        if (!writes.keySet().equals(other.writes.keySet())) return false;
        for (Map.Entry<String, byte[]> e : writes.entrySet()) {
            if (!java.util.Arrays.equals(e.getValue(), other.writes.get(e.getKey()))) return false;
        }
        return deletes.equals(other.deletes) && message.equals(other.message)
                && authorName.equals(other.authorName) && authorEmail.equals(other.authorEmail);
    }

    @Override public int hashCode() {
        return java.util.Objects.hash(writes.keySet(), deletes, message, authorName, authorEmail);
    }

    @Override public String toString() {
        return "BranchChange[writes=" + writes.keySet() + ", deletes=" + deletes + ", message=" + message + "]";
    }
}
