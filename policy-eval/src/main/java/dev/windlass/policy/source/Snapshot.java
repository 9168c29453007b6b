package dev.windlass.policy.source;

import java.util.SortedMap;

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

    /** Who made the commit, as "Name <email>" ("" when unknown, as for a folder on disk). */
    default String author() { return ""; }
}
