package dev.windlass.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEditor;
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

/**
 * The Git origin of a benchmark run: a real bare repository on disk. The developer's pushes are commits written
 * straight into it (the engine sees them as any pushed commit: through a fetch), so generating 5,000 apps does not
 * cost a clone on the developer's side.
 */
final class Origin implements AutoCloseable {
    private final Path dir;
    private final Repository repo;

    private Origin(Path dir, Repository repo) {
        this.dir = dir;
        this.repo = repo;
    }

    static Origin create(Path dir) throws IOException {
        try {
            Git.init().setBare(true).setInitialBranch("main").setDirectory(dir.toFile()).call().close();
        } catch (GitAPIException e) {
            throw new IOException("cannot create the origin " + dir, e);
        }
        Repository repo = new FileRepositoryBuilder().setGitDir(dir.toFile()).build();
        // The origin stands for a Git host, which does its own housekeeping; Git's automatic GC here (started by
        // the engine's pushes) would race this process's direct commits.
        var config = repo.getConfig();
        config.setInt("gc", null, "auto", 0);
        config.setInt("gc", null, "autoPackLimit", 0);
        config.save();
        return new Origin(dir, repo);
    }

    Path dir() { return dir; }

    /** Commits {@code writes} (null content deletes) on top of {@code branch}, creating it from {@code from} if absent. */
    String commit(String branch, String from, Map<String, byte[]> writes, String message) throws IOException {
        ObjectId parent = repo.resolve("refs/heads/" + branch);
        if (parent == null && from != null) parent = repo.resolve("refs/heads/" + from);
        try (ObjectInserter ins = repo.newObjectInserter(); RevWalk walk = new RevWalk(repo)) {
            DirCache index = DirCache.newInCore();
            if (parent != null) {
                DirCacheBuilder b = index.builder();
                b.addTree(new byte[0], 0, repo.newObjectReader(), walk.parseCommit(parent).getTree());
                b.finish();
            }
            DirCacheEditor editor = index.editor();
            for (Map.Entry<String, byte[]> e : writes.entrySet()) {
                if (e.getValue() == null) {
                    editor.add(new DirCacheEditor.DeletePath(e.getKey()));
                } else {
                    ObjectId blob = ins.insert(Constants.OBJ_BLOB, e.getValue());
                    editor.add(new DirCacheEditor.PathEdit(e.getKey()) {
                        @Override public void apply(DirCacheEntry entry) {
                            entry.setFileMode(FileMode.REGULAR_FILE);
                            entry.setObjectId(blob);
                        }
                    });
                }
            }
            editor.finish();
            CommitBuilder c = new CommitBuilder();
            c.setTreeId(index.writeTree(ins));
            if (parent != null) c.setParentId(parent);
            PersonIdent who = new PersonIdent("Bench Developer", "dev@bench.example");
            c.setAuthor(who);
            c.setCommitter(who);
            c.setMessage(message + "\n");
            ObjectId id = ins.insert(c);
            ins.flush();
            RefUpdate u = repo.updateRef("refs/heads/" + branch);
            u.setNewObjectId(id);
            u.setForceUpdate(true);
            RefUpdate.Result r = u.update();
            if (r == RefUpdate.Result.LOCK_FAILURE || r == RefUpdate.Result.REJECTED) throw new IOException("cannot move " + branch + ": " + r);
            return id.name();
        }
    }

    /** Commits reachable from {@code branch}. */
    int commitCount(String branch) throws IOException {
        ObjectId tip = repo.resolve("refs/heads/" + branch);
        if (tip == null) return 0;
        int n = 0;
        try (RevWalk walk = new RevWalk(repo)) {
            walk.markStart(walk.parseCommit(tip));
            for (RevCommit ignored : walk) n++;
        }
        return n;
    }

    /** Files and bytes in the tip tree of {@code branch}. */
    long[] tipTree(String branch) throws IOException {
        ObjectId tip = repo.resolve("refs/heads/" + branch);
        if (tip == null) return new long[] {0, 0};
        long files = 0, bytes = 0;
        try (RevWalk walk = new RevWalk(repo); var reader = repo.newObjectReader(); var tw = new org.eclipse.jgit.treewalk.TreeWalk(reader)) {
            tw.addTree(walk.parseCommit(tip).getTree());
            tw.setRecursive(true);
            while (tw.next()) {
                files++;
                bytes += reader.getObjectSize(tw.getObjectId(0), Constants.OBJ_BLOB);
            }
        }
        return new long[] {files, bytes};
    }

    /**
     * Packs everything and drops what no ref reaches, as a Git host's scheduled repack does. Deltas are computed
     * afresh ({@code git repack -a -d -f}): kept as pushed, trees that JGit sent whole stay whole, 4-7 times larger.
     */
    void gc() throws IOException {
        try {
            org.eclipse.jgit.internal.storage.file.GC gc = new org.eclipse.jgit.internal.storage.file.GC(
                    (org.eclipse.jgit.internal.storage.file.FileRepository) repo);
            org.eclipse.jgit.storage.pack.PackConfig pack = new org.eclipse.jgit.storage.pack.PackConfig(repo);
            pack.setReuseDeltas(false);
            pack.setReuseObjects(false);
            gc.setPackConfig(pack);
            gc.setExpire(java.time.Instant.now());
            gc.setPackExpire(java.time.Instant.now());
            gc.gc().join();
        } catch (java.text.ParseException | org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IOException("GC of the origin failed", e);
        }
    }

    /** Bytes of the repository's packs: after {@link #gc}, everything reachable from its branches. */
    long packBytes() throws IOException {
        try (Stream<Path> all = Files.list(dir.resolve("objects").resolve("pack"))) {
            return all.filter(p -> p.toString().endsWith(".pack")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /** Bytes the repository takes on disk. */
    long diskBytes() throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @Override public void close() { repo.close(); }
}
