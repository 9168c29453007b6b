package dev.windlass.git;

import dev.windlass.policy.source.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The files of one commit, listed from its tree when created and read blob by blob on demand. No working tree is
 * involved. Safe for concurrent reads: each read opens its own {@link ObjectReader}, which JGit does not share
 * between threads. Usable while the {@link Mirror} it came from is open.
 */
public final class CommitSnapshot implements Snapshot {

    private final Repository repository;
    private final String commit;
    private final SortedMap<String, String> files = new TreeMap<>();
    private final SortedSet<String> symlinks = new TreeSet<>();
    private final String author;

    CommitSnapshot(Repository repository, RevCommit commit) throws IOException {
        this.repository = repository;
        this.commit = commit.name();
        var who = commit.getAuthorIdent();
        this.author = who == null ? "" : who.getName() + " <" + who.getEmailAddress() + ">";
        list(repository, commit);
    }

    @Override public String commit() { return commit; }

    @Override public String author() { return author; }

    @Override public SortedMap<String, String> files() { return Collections.unmodifiableSortedMap(files); }

    @Override public SortedSet<String> symlinks() { return Collections.unmodifiableSortedSet(symlinks); }

    @Override public byte[] read(String path) {
        String id = files.get(path);
        if (id == null) throw new NoSuchElementException(path);
        try (ObjectReader reader = repository.newObjectReader()) {
            return reader.open(ObjectId.fromString(id), Constants.OBJ_BLOB).getBytes(Integer.MAX_VALUE);
        } catch (IOException e) {
            // The blob was listed from this very commit; losing it means the mirror is damaged.
            throw new UncheckedIOException("cannot read " + path + " at " + commit, e);
        }
    }

    /** The content id a snapshot would list for this tree entry, or null when it is not a plain file. */
    static ObjectId fileId(TreeWalk walk, int tree) {
        // Symlinks (listed apart) and submodules have no content of their own to evaluate. Masking the type (rather than comparing
        // whole modes) keeps files with odd permission bits such as 100664 that old repositories still carry.
        boolean plainFile = (walk.getRawMode(tree) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
        return plainFile ? walk.getObjectId(tree) : null;
    }

    /** Lists the plain files and, apart from them, the symbolic links; submodules are neither. */
    private void list(Repository repository, RevCommit commit) throws IOException {
        try (TreeWalk walk = new TreeWalk(repository)) {
            walk.addTree(commit.getTree());
            walk.setRecursive(true);
            while (walk.next()) {
                ObjectId id = fileId(walk, 0);
                if (id != null) files.put(walk.getPathString(), id.name());
                else if ((walk.getRawMode(0) & FileMode.TYPE_MASK) == FileMode.TYPE_SYMLINK) symlinks.add(walk.getPathString());
            }
        }
    }

    @Override public String toString() {
        return "CommitSnapshot[" + commit + ", " + files.size() + " files]";
    }
}
