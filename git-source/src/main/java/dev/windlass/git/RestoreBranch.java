package dev.windlass.git;

import java.io.IOException;
import java.util.Optional;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilter;

/**
 * A new branch on the remote holding one commit on top of {@code base} that makes the files under one folder what another
 * commit had: "restore apps/web/manifests to what commit X had". Everything outside that folder stays as {@code base} has
 * it. Made once: a branch that exists already is left as it is (an earlier try pushed it), never overwritten.
 */
public final class RestoreBranch {
    private RestoreBranch() {}

    /** How it went. */
    public sealed interface Outcome {
        /** The branch was pushed with {@code commit}. */
        record Pushed(String commit) implements Outcome {}

        /** The branch was on the remote already, at {@code commit}: left as it is. */
        record Existed(String commit) implements Outcome {}

        /** {@code base} already has the folder as {@code good} had it: there is nothing to restore, nothing was pushed. */
        record Unchanged() implements Outcome {}

        /** The push failed or was refused. */
        record Failed(String reason) implements Outcome {}
    }

    /**
     * @param folder a folder of the repo ({@code apps/web/manifests}), without a trailing slash
     */
    public static Outcome push(Mirror mirror, String branch, String base, String good, String folder, String message, String authorName,
                               String authorEmail) throws IOException {
        // As every commit the engine makes: no compaction of the mirror runs while its objects are written and pushed.
        return mirror.housekeeping().writingObjects(() -> build(mirror, branch, base, good, folder, message, authorName, authorEmail));
    }

    private static Outcome build(Mirror mirror, String branch, String base, String good, String folder, String message, String authorName,
                                 String authorEmail) throws IOException {
        if (folder == null || folder.isBlank() || folder.startsWith("/") || folder.endsWith("/")) {
            throw new IllegalArgumentException("not a folder of the repo: " + folder);
        }
        String ref = Mirror.branchRef(branch);
        ObjectId created;
        try (ObjectInserter inserter = mirror.repository().newObjectInserter(); RevWalk walk = new RevWalk(inserter.newReader())) {
            RevCommit baseCommit = walk.parseCommit(ObjectId.fromString(base));
            RevCommit goodCommit = walk.parseCommit(ObjectId.fromString(good));
            DirCache index = DirCache.newInCore();
            DirCacheBuilder builder = index.builder();
            String prefix = folder + "/";
            try (TreeWalk tw = new TreeWalk(walk.getObjectReader())) {
                tw.addTree(baseCommit.getTree());
                tw.setRecursive(true);
                while (tw.next()) {
                    if (!tw.getPathString().startsWith(prefix)) builder.add(entry(tw));
                }
            }
            try (TreeWalk tw = new TreeWalk(walk.getObjectReader())) {
                tw.addTree(goodCommit.getTree());
                tw.setRecursive(true);
                tw.setFilter(PathFilter.create(folder));
                while (tw.next()) builder.add(entry(tw));
            }
            builder.finish();
            ObjectId tree = index.writeTree(inserter);
            if (tree.equals(baseCommit.getTree().getId())) return new Outcome.Unchanged();
            PersonIdent author = new PersonIdent(authorName, authorEmail);
            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(tree);
            commit.setParentId(baseCommit);
            commit.setAuthor(author);
            commit.setCommitter(author);
            commit.setMessage(message);
            created = inserter.insert(commit);
            inserter.flush();
        }
        // Built first, locally: a folder that is already as it was asks the remote nothing.
        Optional<ObjectId> existing;
        try {
            existing = mirror.sync().fetchRef(ref);
        } catch (RemoteAccessException e) {
            return new Outcome.Failed(e.getMessage());
        }
        if (existing.isPresent()) return new Outcome.Existed(existing.get().name());
        RemoteRefUpdate update;
        try {
            update = mirror.sync().pushWithLease(ref, Optional.empty(), created);
        } catch (RemoteAccessException e) {
            return new Outcome.Failed(e.getMessage());
        }
        return switch (update.getStatus()) {
            case OK, UP_TO_DATE -> {
                mirror.sync().recordPushed(ref, created);
                yield new Outcome.Pushed(created.name());
            }
            default -> new Outcome.Failed("push to " + ref + " rejected (" + update.getStatus()
                    + (update.getMessage() == null ? "" : ": " + update.getMessage()) + ")");
        };
    }

    private static DirCacheEntry entry(TreeWalk tw) {
        DirCacheEntry e = new DirCacheEntry(tw.getPathString());
        e.setFileMode(tw.getFileMode(0));
        e.setObjectId(tw.getObjectId(0));
        return e;
    }
}
