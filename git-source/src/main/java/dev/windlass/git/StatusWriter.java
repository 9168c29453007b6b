package dev.windlass.git;

import java.io.IOException;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import dev.windlass.policy.fence.WriteFence;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Records engine status as commits on a dedicated branch of the config remote ({@value #DEFAULT_BRANCH} unless told
 * otherwise). The branch starts as an orphan so it shares no history with config. Every write lands on the remote's
 * current tip with only its own files changed, so files other writers changed meanwhile survive; a change computed
 * against what the writer read ({@link BranchChange#basedOn}) never overwrites a file another writer changed since:
 * that is a {@link CommitOutcome.Conflict}, and the writer reads again ({@link #readTip}) and recomputes.
 */
public final class StatusWriter {

    public static final String DEFAULT_BRANCH = "windlass/status";

    private final Mirror mirror;
    private final String branch;
    private final BranchCommitter committer;
    private final HistoryTrimmer trimmer;
    private final WriteFence fence;
    private final java.util.concurrent.atomic.AtomicInteger commitsSinceTrimCheck = new java.util.concurrent.atomic.AtomicInteger(Integer.MAX_VALUE / 2);

    public StatusWriter(Mirror mirror) {
        this(mirror, DEFAULT_BRANCH, RetryPolicy.DEFAULT);
    }

    public StatusWriter(Mirror mirror, String branch, RetryPolicy retry) {
        this(mirror, branch, retry, WriteFence.OPEN);
    }

    /** @param fence asked right before every push (commits and history trims); while it refuses, nothing is pushed */
    public StatusWriter(Mirror mirror, String branch, RetryPolicy retry, WriteFence fence) {
        this.mirror = mirror;
        this.branch = branch;
        this.fence = fence;
        this.committer = new BranchCommitter(mirror, branch, retry, fence);
        this.trimmer = new HistoryTrimmer(mirror, Mirror.branchRef(branch));
    }

    public String branch() { return branch; }

    /**
     * Applies {@code change} to the remote tip; when another writer got there first, re-applies it to the new tip.
     * A path with a base that another writer changed since makes the whole change a {@link CommitOutcome.Conflict}.
     */
    public CommitOutcome write(BranchChange change) throws IOException {
        CommitOutcome outcome = committer.commit(current -> change);
        if (outcome instanceof CommitOutcome.Committed) commitsSinceTrimCheck.incrementAndGet();
        return outcome;
    }

    /**
     * Keeps the branch's newest {@code limit} commits once it has more than twice that, on top of one root
     * commit holding the state the dropped ones ended with (see {@link HistoryTrimmer}). The tip's files stay the same.
     */
    public HistoryTrim trimHistory(int limit, String authorName, String authorEmail) throws IOException {
        return trimHistory(limit, authorName, authorEmail, "");
    }

    /** @param trailers lines ending the root commit's message ({@code Key: value\n} each), such as who wrote it; "" for none */
    public HistoryTrim trimHistory(int limit, String authorName, String authorEmail, String trailers) throws IOException {
        Optional<String> refusal = fence.refusal();
        if (refusal.isPresent()) return new HistoryTrim.Failed("not trimmed: " + refusal.get());
        HistoryTrim trim = trimmer.trim(limit, new org.eclipse.jgit.lib.PersonIdent(authorName, authorEmail), trailers);
        if (!(trim instanceof HistoryTrim.Failed)) commitsSinceTrimCheck.set(0);
        return trim;
    }

    /**
     * {@link #trimHistory} when it may be due: on the first call, and then once this writer made a tenth of
     * {@code limit} commits since the last look, so that a pass does not walk the history each time. Empty when it did not
     * look, or when {@code limit} is 0 (keep everything).
     */
    public Optional<HistoryTrim> trimHistoryIfDue(int limit, String authorName, String authorEmail) throws IOException {
        return trimHistoryIfDue(limit, authorName, authorEmail, "");
    }

    /** As {@link #trimHistoryIfDue(int, String, String)}, with {@code trailers} ending the root commit's message. */
    public Optional<HistoryTrim> trimHistoryIfDue(int limit, String authorName, String authorEmail, String trailers) throws IOException {
        if (limit == 0 || commitsSinceTrimCheck.get() < Math.max(1, limit / 10)) return Optional.empty();
        return Optional.of(trimHistory(limit, authorName, authorEmail, trailers));
    }

    /** One file at the remote's current status tip (fetched now); empty when the file or the branch does not exist. */
    public Optional<byte[]> readStatus(String path) throws IOException {
        Optional<CommitSnapshot> tip = fetchTip();
        if (tip.isEmpty() || !tip.get().files().containsKey(path)) return Optional.empty();
        return Optional.of(tip.get().read(path));
    }

    /**
     * Every file at the remote's current status tip whose path starts with {@code prefix} (end it with {@code /} to
     * mean a directory); empty when the branch does not exist.
     */
    public SortedMap<String, byte[]> readStatusFiles(String prefix) throws IOException {
        return new TreeMap<>(readTip(prefix).files());
    }

    /**
     * Every file at the remote's current status tip (fetched now) under any of {@code prefixes}, with the commit they
     * were read at: what a writer computes its next change against.
     */
    public StatusRead readTip(String... prefixes) throws IOException {
        return read(fetchTip(), prefixes);
    }

    /**
     * As {@link #readTip}, at the status tip as this mirror last fetched or pushed it, without asking the remote: for a
     * pass that has just fetched every branch. A change computed against it is safe all the same: a file another writer
     * changed since makes the write a {@link CommitOutcome.Conflict}, and the writer reads again.
     */
    public StatusRead readLocal(String... prefixes) throws IOException {
        Optional<String> tip = mirror.resolve(Mirror.branchRef(branch));
        return read(tip.isEmpty() ? Optional.empty() : Optional.of(mirror.snapshot(tip.get())), prefixes);
    }

    private static StatusRead read(Optional<CommitSnapshot> tip, String... prefixes) throws IOException {
        SortedMap<String, byte[]> files = new TreeMap<>();
        if (tip.isEmpty()) return new StatusRead(Optional.empty(), files);
        for (String path : tip.get().files().keySet()) {
            for (String prefix : prefixes) {
                if (path.startsWith(prefix)) {
                    files.put(path, tip.get().read(path));
                    break;
                }
            }
        }
        return new StatusRead(Optional.of(tip.get().commit()), files);
    }

    private Optional<CommitSnapshot> fetchTip() throws IOException {
        Optional<ObjectId> tip = mirror.sync().fetchRef(Mirror.branchRef(branch));
        return tip.isEmpty() ? Optional.empty() : Optional.of(mirror.snapshot(tip.get().name()));
    }
}
