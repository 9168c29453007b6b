package dev.windlass.engine.migrate;

import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The commit checked out in a Git working tree, read from Git (not from the files on disk), and a new branch written
 * beside it: blobs, tree and commit go straight into the object store, so the working tree, the index and the branch
 * checked out are never touched.
 */
final class GitTree implements AutoCloseable {
    private final Repository repo;
    private final RevCommit head;

    private GitTree(Repository repo, RevCommit head) {
        this.repo = repo;
        this.head = head;
    }

    /** The repository whose working tree is {@code dir}; fails with a sentence when it is none, or has no commit. */
    static GitTree open(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        if (!abs.resolve(".git").toFile().exists()) throw new IOException(abs + " is not the top folder of a Git working tree (no .git in it)");
        Repository repo = new FileRepositoryBuilder().setWorkTree(abs.toFile()).setGitDir(abs.resolve(".git").toFile()).setMustExist(true).build();
        ObjectId id = repo.resolve(Constants.HEAD);
        if (id == null) {
            repo.close();
            throw new IOException(abs + " has no commit yet: commit the repo first");
        }
        try (RevWalk walk = new RevWalk(repo)) {
            return new GitTree(repo, walk.parseCommit(id));
        }
    }

    String headId() { return head.name(); }

    /** The checked-out branch's short name, or the commit id when HEAD is detached. */
    String headName() throws IOException {
        String full = repo.getFullBranch();
        return full != null && full.startsWith(Constants.R_HEADS) ? full.substring(Constants.R_HEADS.length()) : head.name();
    }

    boolean hasBranch(String name) throws IOException { return repo.exactRef(Constants.R_HEADS + name) != null; }

    /** Every file of the HEAD commit (symbolic links kept as such, so the reading refuses them as the engine does). */
    MapSnapshot snapshot() throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        java.util.Set<String> links = new java.util.TreeSet<>();
        try (TreeWalk walk = new TreeWalk(repo)) {
            walk.addTree(head.getTree());
            walk.setRecursive(true);
            while (walk.next()) {
                if (walk.getFileMode(0) == FileMode.GITLINK) continue;
                if (walk.getFileMode(0) == FileMode.SYMLINK) links.add(walk.getPathString());
                files.put(walk.getPathString(), repo.open(walk.getObjectId(0)).getBytes());
            }
        }
        return new MapSnapshot(head.name(), files, links);
    }

    /**
     * Writes a commit on the new branch {@code branch}, whose parent is HEAD: HEAD's tree with {@code changes} (path to
     * new content, or null to delete) applied. The branch must not exist.
     */
    String commit(String branch, Map<String, byte[]> changes, String message) throws IOException {
        DirCache index = DirCache.newInCore();
        DirCacheBuilder builder = index.builder();
        try (ObjectInserter inserter = repo.newObjectInserter(); TreeWalk walk = new TreeWalk(repo)) {
            walk.addTree(head.getTree());
            walk.setRecursive(true);
            while (walk.next()) {
                String path = walk.getPathString();
                if (changes.containsKey(path)) continue;
                DirCacheEntry e = new DirCacheEntry(path);
                e.setFileMode(walk.getFileMode(0));
                e.setObjectId(walk.getObjectId(0));
                builder.add(e);
            }
            for (var c : new TreeMap<>(changes).entrySet()) {
                if (c.getValue() == null) continue;
                DirCacheEntry e = new DirCacheEntry(c.getKey());
                e.setFileMode(FileMode.REGULAR_FILE);
                e.setObjectId(inserter.insert(Constants.OBJ_BLOB, c.getValue()));
                builder.add(e);
            }
            builder.finish();
            ObjectId tree = index.writeTree(inserter);
            PersonIdent who = new PersonIdent(repo);
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(tree);
            cb.setParentId(head);
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage(message);
            ObjectId commit = inserter.insert(cb);
            inserter.flush();
            RefUpdate ru = repo.updateRef(Constants.R_HEADS + branch);
            ru.setExpectedOldObjectId(ObjectId.zeroId());
            ru.setNewObjectId(commit);
            ru.setRefLogMessage("windlass import", false);
            RefUpdate.Result r = ru.update();
            if (r != RefUpdate.Result.NEW) throw new IOException("could not create branch " + branch + ": " + r);
            return commit.name();
        }
    }

    @Override public void close() { repo.close(); }
}
