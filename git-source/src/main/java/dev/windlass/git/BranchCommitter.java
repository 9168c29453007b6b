package dev.windlass.git;

import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.policy.source.Snapshot;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import dev.windlass.policy.fence.WriteFence;
import java.util.function.Function;
import org.eclipse.jgit.internal.storage.file.ObjectDirectory;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way Windlass commits to a remote branch: fetch the tip, build the edit on top of it, push with the tip as
 * lease, and on a lost race start over from the new tip. Writes through one instance are serialized; writers in other
 * processes are kept apart by the lease alone.
 */
final class BranchCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(BranchCommitter.class);

    /** From this many files on, a change is written as one pack ({@link #inserterFor}). */
    static final int PACKED_WRITES = 100;

    private final Mirror mirror;
    private final String ref;
    private final RetryPolicy retry;
    private final WriteFence fence;

    BranchCommitter(Mirror mirror, String branch, RetryPolicy retry) {
        this(mirror, branch, retry, WriteFence.OPEN);
    }

    /** @param fence asked right before each push; a refusal ends the commit as {@link CommitOutcome.Fenced} */
    BranchCommitter(Mirror mirror, String branch, RetryPolicy retry, WriteFence fence) {
        this.mirror = mirror;
        this.ref = Mirror.branchRef(branch);
        this.retry = retry;
        this.fence = fence;
    }

    /** {@code edit} sees the files at the tip each attempt starts from; it may run once per attempt. */
    synchronized CommitOutcome commit(Function<Snapshot, BranchChange> edit) throws IOException {
        String lastRejection = "";
        boolean lastRace = true;
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1 && !pause(attempt - 1)) return new CommitOutcome.Failed("interrupted", attempt - 1);
            int n = attempt;
            Attempt result = mirror.housekeeping().writingObjects(() -> attempt(edit, n));
            if (result.outcome() != null) return result.outcome();
            lastRejection = result.rejection();
            lastRace = result.race();
            LOG.debug("push to {} rejected (attempt {}: {}), retrying on the tip as it is now", ref, attempt, lastRejection);
        }
        return new CommitOutcome.Failed((lastRace ? ref + " kept moving; gave up after " : "push to " + ref + " rejected; gave up after ")
                + retry.maxAttempts() + " attempts (last: " + lastRejection + ")", retry.maxAttempts());
    }

    /**
     * How one attempt ended: an outcome to return, or the rejection of a push to try again, {@code race} when the branch
     * moved under it.
     */
    private record Attempt(CommitOutcome outcome, String rejection, boolean race) {
        static Attempt done(CommitOutcome outcome) { return new Attempt(outcome, null, false); }
        static Attempt lost(String rejection) { return new Attempt(null, rejection, true); }
        static Attempt refused(String rejection) { return new Attempt(null, rejection, false); }
    }

    private Attempt attempt(Function<Snapshot, BranchChange> edit, int attempt) throws IOException {
        Optional<ObjectId> tipId;
        try {
            tipId = mirror.sync().fetchRef(ref);
        } catch (RemoteAccessException e) {
            return Attempt.done(new CommitOutcome.Failed(e.getMessage(), attempt));
        }
        Optional<RevCommit> tip = tipId.isEmpty() ? Optional.empty() : Optional.of(tipCommit(tipId.get()));
        Snapshot current = tip.isPresent()
                ? new CommitSnapshot(mirror.repository(), tip.get()) : new MapSnapshot(null, Map.of());
        BranchChange change = edit.apply(current);
        // Three-way at file granularity: the tip's other files stay as they are; a file of ours that another writer
        // changed since we read it is not overwritten.
        SortedSet<String> conflicts = change.conflictsWith(current.files());
        if (!conflicts.isEmpty()) return Attempt.done(new CommitOutcome.Conflict(conflicts, tipId.map(ObjectId::name).orElse("")));
        Optional<ObjectId> created = build(tip, change);
        if (created.isEmpty()) return Attempt.done(new CommitOutcome.Unchanged(tipId.map(ObjectId::name)));
        Optional<String> refusal = fence.refusal();
        if (refusal.isPresent()) return Attempt.done(new CommitOutcome.Fenced(refusal.get()));

        RemoteRefUpdate update;
        try {
            update = mirror.sync().pushWithLease(ref, tipId, created.get());
        } catch (RemoteAccessException e) {
            return Attempt.done(new CommitOutcome.Failed(e.getMessage(), attempt));
        }
        return switch (update.getStatus()) {
            case OK, UP_TO_DATE -> {
                mirror.sync().recordPushed(ref, created.get());
                yield Attempt.done(new CommitOutcome.Committed(created.get().name(), attempt));
            }
            case REJECTED_NONFASTFORWARD, REJECTED_REMOTE_CHANGED -> Attempt.lost(update.getStatus().name());
            // Refused in the server's own words: a lock another writer held (a race), or a rule of the server (a hook).
            // Which one is not read from the words: it is tried again on a fresh tip, within the same budget.
            case REJECTED_OTHER_REASON -> Attempt.refused(update.getStatus() + (update.getMessage() == null ? "" : ": " + update.getMessage()));
            default -> Attempt.done(failed(update, attempt));
        };
    }

    /** The new commit on top of {@code tip}, or empty when the edit leaves the tree as it was. */
    private Optional<ObjectId> build(Optional<RevCommit> tip, BranchChange change) throws IOException {
        try (ObjectInserter inserter = inserterFor(change);
                ObjectReader reader = inserter.newReader()) {
            Optional<RevTree> base = tip.map(RevCommit::getTree);
            ObjectId tree = TreeEdits.write(inserter, reader, base, change);
            if (tree.equals(base.map(RevTree::getId).orElse(TreeEdits.EMPTY_TREE))) return Optional.empty();
            PersonIdent author = new PersonIdent(change.authorName(), change.authorEmail());
            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(tree);
            tip.ifPresent(commit::setParentId);
            commit.setAuthor(author);
            commit.setCommitter(author);
            commit.setMessage(change.message());
            ObjectId id = inserter.insert(commit);
            inserter.flush();
            return Optional.of(id);
        }
    }

    /**
     * A change of {@value #PACKED_WRITES} files or more (a first sync records one per application) is written as one
     * pack: as loose objects, each file would be compressed into a file of its own, renamed into place and looked up
     * among the packs first, which took a first sync of 200 applications 0.25 to 0.38 s (0.05 to 0.13 s as one pack). Git keeps a push of that many
     * objects as a pack for the same reason (its {@code receive.unpackLimit}, 100 by default). Smaller changes, the
     * usual pass's, stay loose: a pack per status commit would make the mirror compact itself far more often.
     */
    private ObjectInserter inserterFor(BranchChange change) {
        Repository repository = mirror.repository();
        // The file-backed object store's own pack writer; JGit offers no public way to ask for it.
        if (change.writes().size() >= PACKED_WRITES && repository.getObjectDatabase() instanceof ObjectDirectory directory) {
            return directory.newPackInserter();
        }
        return repository.newObjectInserter();
    }

    private RevCommit tipCommit(ObjectId id) throws IOException {
        return mirror.reads().commit(id)
                .orElseThrow(() -> new IOException(ref + " points at " + id.name() + ", which is not a commit"));
    }

    private CommitOutcome failed(RemoteRefUpdate update, int attempt) {
        String message = update.getMessage() == null ? "" : ": " + update.getMessage();
        return new CommitOutcome.Failed("push to " + ref + " rejected (" + update.getStatus() + message + ")", attempt);
    }

    private boolean pause(int lost) {
        try {
            Thread.sleep(retry.delayAfter(lost).toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
