package dev.windlass.git;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.merge.MergeStrategy;
import org.eclipse.jgit.merge.ResolveMerger;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Merge results of review heads, computed in memory like a merge button would before anyone presses it. Safe from any
 * thread: each call has its own walker, merger and inserter, and JGit writes each loose object to a temporary file
 * and renames it into place, taking an object that is already there as written, so two threads previewing the same
 * pair both succeed.
 */
final class MergePreviews {

    /** Fixed so that the same base and head always give the same merge commit id. */
    static final PersonIdent IDENT = new PersonIdent("Windlass", "windlass@localhost", Instant.EPOCH, ZoneOffset.UTC);
    private static final int SHORT_ID = 7;

    private final Repository repository;
    private final Housekeeping housekeeping;

    MergePreviews(Repository repository, Housekeeping housekeeping) {
        this.repository = repository;
        this.housekeeping = housekeeping;
    }

    MergePreview preview(String baseCommit, String headCommit) throws IOException {
        try (RevWalk walk = new RevWalk(repository)) {
            RevCommit base = MirrorReads.parseCommit(walk, baseCommit, "base commit");
            RevCommit head = MirrorReads.parseCommit(walk, headCommit, "head commit");
            // Checked first so that base == head is "nothing to merge" rather than a fast-forward to itself.
            if (walk.isMergedInto(head, base)) return new MergePreview.UpToDate(base.name());
            if (walk.isMergedInto(base, head)) return new MergePreview.Merged(head.name(), head.getTree().name(), true);
            return housekeeping.writingObjects(() -> merge(base, head));
        }
    }

    private MergePreview merge(RevCommit base, RevCommit head) throws IOException {
        // In core: no index, no working tree (a bare mirror has neither). The merger inserts the merged blobs and
        // trees itself and flushes them when the merge succeeds.
        ResolveMerger merger = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(repository, true);
        if (!merger.merge(base, head)) return new MergePreview.Conflicted(conflicts(merger));
        ObjectId tree = merger.getResultTreeId();

        CommitBuilder commit = new CommitBuilder();
        commit.setTreeId(tree);
        commit.setParentIds(base, head);
        commit.setAuthor(IDENT);
        commit.setCommitter(IDENT);
        commit.setMessage("Merge " + shortId(head) + " into " + shortId(base) + " (review preview)");
        // The commit stays unreferenced, so the mirror keeps it for a while (Housekeeping), which is harmless: it is one
        // small object per previewed base and head (its tree and blobs are mostly shared with the two sides), and
        // previewing the same pair again writes nothing new because the id is the same.
        try (ObjectInserter inserter = repository.newObjectInserter()) {
            ObjectId id = inserter.insert(commit);
            inserter.flush();
            return new MergePreview.Merged(id.name(), tree.name(), false);
        }
    }

    private static List<String> conflicts(ResolveMerger merger) throws IOException {
        Set<String> paths = new TreeSet<>(merger.getUnmergedPaths());
        if (merger.getFailingPaths() != null) paths.addAll(merger.getFailingPaths().keySet());
        merger.getMergeResults().forEach((path, result) -> {
            if (result.containsConflicts()) paths.add(path);
        });
        // An in-core merge has no index or working tree to be dirty, so a failure always names a path; guard anyway
        // rather than report a conflict nobody can find.
        if (paths.isEmpty()) throw new IOException("merge failed without naming a conflicting path");
        return List.copyOf(paths);
    }

    private static String shortId(ObjectId id) {
        // A fixed length rather than the shortest unique prefix: the message, and so the commit id, must not depend
        // on what else the mirror holds.
        return id.abbreviate(SHORT_ID).name();
    }
}
