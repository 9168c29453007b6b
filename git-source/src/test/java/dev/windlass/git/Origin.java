package dev.windlass.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
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
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * A bare "remote" repository plus a working clone used to commit to it the way a person would, and plain JGit reads
 * of the bare repository so tests check what actually landed on the remote.
 */
final class Origin implements AutoCloseable {

    final Path bareDir;
    private final Git bare;
    private final Git work;

    private Origin(Path bareDir, Git bare, Git work) {
        this.bareDir = bareDir;
        this.bare = bare;
        this.work = work;
    }

    static Origin create(Path root) throws GitAPIException {
        Path bareDir = root.resolve("origin.git");
        Git bare = Git.init().setBare(true).setDirectory(bareDir.toFile()).call();
        // A Git host runs its own GC on its own schedule; a background GC here would only outlive the test's directory.
        bare.getRepository().getConfig().setInt("gc", null, "auto", 0);
        bare.getRepository().getConfig().setInt("gc", null, "autoPackLimit", 0);
        try {
            bare.getRepository().getConfig().save();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Git work = Git.cloneRepository().setURI(bareDir.toUri().toString()).setDirectory(root.resolve("work").toFile())
                .call();
        return new Origin(bareDir, bare, work);
    }

    String url() { return bareDir.toUri().toString(); }

    Repository repository() { return bare.getRepository(); }

    /** Commits the given files (null content deletes) and pushes them to {@code branch} of the origin. */
    synchronized String commit(String branch, Map<String, String> files, String message) throws IOException, GitAPIException {
        Path root = work.getRepository().getWorkTree().toPath();
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path path = root.resolve(file.getKey());
            if (file.getValue() == null) {
                work.rm().addFilepattern(file.getKey()).call();
            } else {
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue());
                work.add().addFilepattern(file.getKey()).call();
            }
        }
        RevCommit commit = work.commit().setMessage(message).setAuthor("Dev", "dev@example.com")
                .setCommitter("Dev", "dev@example.com").setSign(false).call();
        // A clone of an empty repository sits on "master"; name the remote branch explicitly.
        push(commit.name(), "refs/heads/" + branch);
        return commit.name();
    }

    /** Commits a symbolic link at {@code path} pointing at {@code target}, as {@code git add} records one, and pushes it. */
    synchronized String commitSymlink(String branch, String path, String target, String message) throws IOException, GitAPIException {
        Path link = work.getRepository().getWorkTree().toPath().resolve(path);
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, Path.of(target));
        work.add().addFilepattern(path).call();
        RevCommit commit = work.commit().setMessage(message).setAuthor("Dev", "dev@example.com")
                .setCommitter("Dev", "dev@example.com").setSign(false).call();
        push(commit.name(), "refs/heads/" + branch);
        return commit.name();
    }

    /**
     * Commits the given files (null content deletes) on top of {@code parent} (null: a root commit) and force-pushes
     * the commit to {@code ref}, a full ref name such as {@code refs/pull/7/head}. Unlike {@link #commit} this leaves
     * the working clone alone, so branches can diverge; {@code parent} must be a commit this origin made.
     */
    synchronized String commitOnto(String parent, String ref, Map<String, String> files, String message)
            throws IOException, GitAPIException {
        Repository repository = work.getRepository();
        ObjectId commitId;
        try (ObjectInserter inserter = repository.newObjectInserter(); RevWalk walk = new RevWalk(repository)) {
            DirCache index = DirCache.newInCore();
            DirCacheBuilder builder = index.builder();
            RevCommit parentCommit = parent == null ? null : walk.parseCommit(ObjectId.fromString(parent));
            if (parentCommit != null) {
                builder.addTree(new byte[0], DirCacheEntry.STAGE_0, walk.getObjectReader(), parentCommit.getTree());
            }
            builder.finish();
            DirCacheEditor editor = index.editor();
            for (Map.Entry<String, String> file : files.entrySet()) {
                if (file.getValue() == null) {
                    editor.add(new DirCacheEditor.DeletePath(file.getKey()));
                    continue;
                }
                ObjectId blob = inserter.insert(Constants.OBJ_BLOB, file.getValue().getBytes(StandardCharsets.UTF_8));
                editor.add(new DirCacheEditor.PathEdit(file.getKey()) {
                    @Override public void apply(DirCacheEntry entry) {
                        entry.setFileMode(FileMode.REGULAR_FILE);
                        entry.setObjectId(blob);
                    }
                });
            }
            editor.finish();
            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(index.writeTree(inserter));
            if (parentCommit != null) commit.setParentId(parentCommit);
            PersonIdent dev = new PersonIdent("Dev", "dev@example.com");
            commit.setAuthor(dev);
            commit.setCommitter(dev);
            commit.setMessage(message);
            commitId = inserter.insert(commit);
            inserter.flush();
        }
        push(commitId.name(), ref);
        return commitId.name();
    }

    void push(String source, String destinationRef) throws GitAPIException {
        work.push().setRefSpecs(new RefSpec("+" + source + ":" + destinationRef)).call();
    }

    void deleteBranch(String ref) throws GitAPIException {
        work.push().setRefSpecs(new RefSpec(":" + ref)).call();
    }

    Optional<String> tip(String branch) throws IOException {
        Ref ref = repository().exactRef("refs/heads/" + branch);
        return Optional.ofNullable(ref).map(Ref::getObjectId).map(ObjectId::name);
    }

    RevCommit commitAt(String sha) throws IOException {
        try (RevWalk walk = new RevWalk(repository())) {
            return walk.parseCommit(ObjectId.fromString(sha));
        }
    }

    /** Commits reachable from the branch tip, newest first. */
    List<RevCommit> history(String branch) throws IOException {
        List<RevCommit> commits = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repository())) {
            walk.markStart(walk.parseCommit(repository().resolve("refs/heads/" + branch)));
            walk.forEach(commits::add);
        }
        return commits;
    }

    /** Path to UTF-8 content of every file at the branch tip. */
    SortedMap<String, String> files(String branch) throws IOException {
        SortedMap<String, String> files = new TreeMap<>();
        try (RevWalk walk = new RevWalk(repository()); TreeWalk tree = new TreeWalk(repository())) {
            tree.addTree(walk.parseCommit(repository().resolve("refs/heads/" + branch)).getTree());
            tree.setRecursive(true);
            while (tree.next()) {
                byte[] bytes = repository().open(tree.getObjectId(0)).getBytes();
                files.put(tree.getPathString(), new String(bytes, StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    String blobId(String commit, String path) throws IOException {
        return repository().resolve(commit + ":" + path).name();
    }

    @Override public void close() {
        work.close();
        bare.close();
    }
}
