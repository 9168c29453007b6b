package dev.windlass.git;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.RemoteRefUpdate;

/**
 * Keeps a branch that only Windlass writes (the status branch) at a bounded number of commits. Once it has more than
 * twice the limit, the newest {@code limit} commits are written again, with the same trees, authors, dates and
 * messages, on top of one new root commit. That root holds the files the dropped commits ended with, and its message
 * says how many commits were dropped and from when to when. The rewrite is pushed with the old tip as lease, so a
 * commit another writer made meanwhile is never lost: the trim fails and the next one starts over.
 *
 * <p>Trees and blobs are shared with the old commits, so a trim writes only commit objects. Trimming at twice the
 * limit rather than just over it keeps rewrites rare: each one leaves about two unreachable commits per commit made
 * since the last, which the mirror's housekeeping drops after a while.
 */
final class HistoryTrimmer {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final Mirror mirror;
    private final String ref;

    HistoryTrimmer(Mirror mirror, String ref) {
        this.mirror = mirror;
        this.ref = ref;
    }

    /** The branch is trimmed once it has more than this many commits. */
    static int trimAbove(int limit) {
        return 2 * limit;
    }

    HistoryTrim trim(int limit, PersonIdent trimmer, String trailers) throws IOException {
        if (limit < 1) throw new IllegalArgumentException("a history limit keeps at least 1 commit: " + limit);
        return mirror.housekeeping().writingObjects(() -> trimLocked(limit, trimmer, trailers));
    }

    private HistoryTrim trimLocked(int limit, PersonIdent trimmer, String trailers) throws IOException {
        Optional<ObjectId> tip;
        try {
            tip = mirror.sync().fetchRef(ref);
        } catch (RemoteAccessException e) {
            return new HistoryTrim.Failed(e.getMessage());
        }
        if (tip.isEmpty()) return new HistoryTrim.Within(0);
        try (RevWalk walk = new RevWalk(mirror.repository()); ObjectInserter inserter = mirror.repository().newObjectInserter()) {
            // Newest first, along first parents: every status commit has one parent.
            List<RevCommit> newest = new ArrayList<>();
            RevCommit commit = walk.parseCommit(tip.get());
            while (commit != null && newest.size() <= trimAbove(limit)) {
                newest.add(commit);
                commit = commit.getParentCount() == 0 ? null : walk.parseCommit(commit.getParent(0));
            }
            if (newest.size() <= trimAbove(limit)) return new HistoryTrim.Within(newest.size());

            RevCommit lastDropped = newest.get(limit);
            int dropped = newest.size() - limit;
            RevCommit firstDropped = newest.get(newest.size() - 1);
            for (RevCommit c = commit; c != null; c = c.getParentCount() == 0 ? null : walk.parseCommit(c.getParent(0))) {
                dropped++;
                firstDropped = c;
            }
            ObjectId parent = inserter.insert(root(lastDropped, firstDropped, dropped, limit, trimmer, trailers));
            for (int i = limit - 1; i >= 0; i--) parent = inserter.insert(copy(newest.get(i), parent));
            inserter.flush();

            RemoteRefUpdate update;
            try {
                update = mirror.sync().pushWithLease(ref, tip, parent, true);
            } catch (RemoteAccessException e) {
                return new HistoryTrim.Failed(e.getMessage());
            }
            if (update.getStatus() != RemoteRefUpdate.Status.OK) {
                String message = update.getMessage() == null ? "" : ": " + update.getMessage();
                return new HistoryTrim.Failed("push to " + ref + " rejected (" + update.getStatus() + message + ")");
            }
            mirror.sync().recordPushed(ref, parent);
            return new HistoryTrim.Trimmed(dropped, limit, parent.name());
        }
    }

    private static CommitBuilder root(RevCommit lastDropped, RevCommit firstDropped, int dropped, int limit, PersonIdent trimmer,
                                      String trailers) {
        CommitBuilder root = new CommitBuilder();
        root.setTreeId(lastDropped.getTree());
        PersonIdent at = new PersonIdent(trimmer, Instant.ofEpochSecond(lastDropped.getCommitTime()), ZoneOffset.UTC);
        root.setAuthor(at);
        root.setCommitter(new PersonIdent(trimmer, Instant.now(), ZoneOffset.UTC));
        root.setMessage("status history before " + DATE.format(Instant.ofEpochSecond(lastDropped.getCommitTime()))
                + " trimmed (" + dropped + " commits)\n\n"
                + "The status branch keeps its newest " + limit + " commits (Settings spec.statusHistoryLimit).\n"
                + "This commit holds the files the dropped ones ended with. They ran from\n"
                + DATE.format(Instant.ofEpochSecond(firstDropped.getCommitTime())) + " (\"" + firstDropped.getShortMessage() + "\") to\n"
                + DATE.format(Instant.ofEpochSecond(lastDropped.getCommitTime())) + " (\"" + lastDropped.getShortMessage() + "\").\n"
                + (trailers.isEmpty() ? "" : "\n" + trailers));
        return root;
    }

    private static CommitBuilder copy(RevCommit original, ObjectId parent) {
        CommitBuilder copy = new CommitBuilder();
        copy.setTreeId(original.getTree());
        copy.setParentId(parent);
        copy.setAuthor(original.getAuthorIdent());
        copy.setCommitter(original.getCommitterIdent());
        copy.setEncoding(original.getEncoding());
        copy.setMessage(original.getFullMessage());
        return copy;
    }
}
