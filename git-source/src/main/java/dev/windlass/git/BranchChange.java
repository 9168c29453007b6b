package dev.windlass.git;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * One commit's worth of edits to a branch: files to write, paths to delete (a directory path deletes everything
 * under it), and who says why. Applied on top of whatever the branch tip is when the push happens, so the same
 * change can be re-applied after losing a race.
 *
 * <p>{@code bases} says what the writer read at a path before it computed its edit there: the blob id of the file, or
 * {@link #NO_FILE}. A path with a base is a three-way edit: it applies only while the tip still holds the base (or
 * already holds the edit); when another writer changed that file meanwhile, the commit is a
 * {@link CommitOutcome.Conflict} instead of an overwrite. A path without a base is applied whatever the tip holds.
 */
public record BranchChange(
        Map<String, byte[]> writes, Set<String> deletes, String message, String authorName,
        String authorEmail, Map<String, String> bases) {

    /** The base of a path where the writer found no file. */
    public static final String NO_FILE = "";

    public BranchChange(Map<String, byte[]> writes, Set<String> deletes, String message, String authorName, String authorEmail) {
        this(writes, deletes, message, authorName, authorEmail, Map.of());
    }

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
        for (String path : bases.keySet()) {
            if (!copied.containsKey(path) && !deleted.contains(path)) throw new IllegalArgumentException(path + " has a base but no edit");
        }
        bases = Collections.unmodifiableSortedMap(new TreeMap<>(bases));
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
        return new BranchChange(more, deletes, message, authorName, authorEmail, bases);
    }

    public BranchChange write(String path, String utf8) {
        return write(path, utf8.getBytes(StandardCharsets.UTF_8));
    }

    public BranchChange delete(String path) {
        SortedSet<String> more = new TreeSet<>(deletes);
        more.add(path);
        return new BranchChange(writes, more, message, authorName, authorEmail, bases);
    }

    /**
     * This change as computed against {@code read}: for every path it writes or deletes and has no base for yet, the
     * writer read {@code read.get(path)} there (no entry: no file). Bases already set stay.
     */
    public BranchChange basedOn(Map<String, byte[]> read) {
        SortedMap<String, String> more = new TreeMap<>(bases);
        SortedSet<String> edited = new TreeSet<>(writes.keySet());
        edited.addAll(deletes);
        for (String path : edited) {
            byte[] content = read.get(path);
            more.putIfAbsent(path, content == null ? NO_FILE : blobId(content));
        }
        return new BranchChange(writes, deletes, message, authorName, authorEmail, more);
    }

    /**
     * The paths where {@code tip} (path to blob id, as {@link dev.windlass.policy.source.Snapshot#files()} lists them)
     * holds neither this change's base nor its edit: another writer changed them since this writer read them.
     */
    public SortedSet<String> conflictsWith(Map<String, String> tip) {
        SortedSet<String> conflicts = new TreeSet<>();
        bases.forEach((path, base) -> {
            String there = tip.getOrDefault(path, NO_FILE);
            String ours = writes.containsKey(path) ? blobId(writes.get(path)) : NO_FILE;
            if (!there.equals(base) && !there.equals(ours)) conflicts.add(path);
        });
        return conflicts;
    }

    /** The id Git gives a file with this content. */
    static String blobId(byte[] content) {
        return new ObjectInserter.Formatter().idFor(Constants.OBJ_BLOB, content).name();
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
                && authorName.equals(other.authorName) && authorEmail.equals(other.authorEmail) && bases.equals(other.bases);
    }

    @Override public int hashCode() {
        return java.util.Objects.hash(writes.keySet(), deletes, message, authorName, authorEmail);
    }

    @Override public String toString() {
        return "BranchChange[writes=" + writes.keySet() + ", deletes=" + deletes + ", based on " + bases.size() + " reads, message=" + message + "]";
    }
}
