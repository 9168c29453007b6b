package dev.windlass.git;

import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Builds the tree of a {@link BranchChange} applied to a base tree, in memory: no working tree, no index file.
 * Entries of the base that a write would turn into a file-and-directory clash are dropped, since Git trees cannot
 * hold both {@code a} and {@code a/b}.
 */
final class TreeEdits {

    static final ObjectId EMPTY_TREE = new ObjectInserter.Formatter().idFor(Constants.OBJ_TREE, new byte[0]);

    private TreeEdits() {}

    static ObjectId write(ObjectInserter inserter, ObjectReader reader, Optional<RevTree> base, BranchChange change)
            throws IOException {
        DirCache index = DirCache.newInCore();
        DirCacheBuilder builder = index.builder();
        Set<String> writtenDirs = parentDirs(change.writes().keySet());
        if (base.isPresent()) {
            try (TreeWalk walk = new TreeWalk(reader)) {
                walk.addTree(base.get());
                walk.setRecursive(true);
                while (walk.next()) {
                    String path = walk.getPathString();
                    if (dropped(path, change, writtenDirs)) continue;
                    DirCacheEntry entry = new DirCacheEntry(path);
                    entry.setFileMode(walk.getFileMode(0));
                    entry.setObjectId(walk.getObjectId(0));
                    builder.add(entry);
                }
            }
        }
        for (Map.Entry<String, byte[]> write : change.writes().entrySet()) {
            DirCacheEntry entry = new DirCacheEntry(write.getKey());
            entry.setFileMode(FileMode.REGULAR_FILE);
            entry.setObjectId(inserter.insert(Constants.OBJ_BLOB, write.getValue()));
            builder.add(entry);
        }
        builder.finish();
        return index.writeTree(inserter);
    }

    /** Whether a base entry goes: deleted itself or under a deleted directory, overwritten, or in a clash. */
    private static boolean dropped(String path, BranchChange change, Set<String> writtenDirs) {
        if (change.writes().containsKey(path) || change.deletes().contains(path) || writtenDirs.contains(path)) {
            return true;
        }
        for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
            String dir = path.substring(0, slash);
            if (change.deletes().contains(dir) || change.writes().containsKey(dir)) return true;
        }
        return false;
    }

    private static Set<String> parentDirs(Set<String> paths) {
        Set<String> dirs = new HashSet<>();
        for (String path : paths) {
            for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
                dirs.add(path.substring(0, slash));
            }
        }
        return dirs;
    }
}
