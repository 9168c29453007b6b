package dev.windlass.policy.source;

import java.util.Collections;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * The files of one commit, readable without a checkout. Contents are read lazily so that a
 * caller who already parsed a blob (same content id) never reads it again.
 */
public interface Snapshot {

    /** Full commit id this snapshot was taken from. */
    String commit();

    /** Every file path (forward slashes, no leading slash) mapped to its content id (the Git blob id). */
    SortedMap<String, String> files();

    /** The bytes of one file. Throws {@link java.util.NoSuchElementException} for an unknown path. */
    byte[] read(String path);

    /**
     * The paths of the symbolic links, which are neither files of the snapshot nor ever followed: each is reported as an
     * error, the same whether the snapshot is a commit or a folder on disk.
     */
    default SortedSet<String> symlinks() { return Collections.emptySortedSet(); }

    /** Who made the commit, as "Name <email>" ("" when unknown, as for a folder on disk). */
    default String author() { return ""; }
}
