package dev.windlass.git;

import dev.windlass.policy.source.Snapshot;
import java.io.IOException;
import java.util.function.Function;

/**
 * Commits an edit to a config branch of the remote (for commands that change the fleet's desired state). The edit
 * is computed from the files at the tip and, after a lost race, computed again from the new tip, so it never
 * overwrites a change it did not see.
 */
public final class ConfigWriter {

    private final BranchCommitter committer;

    public ConfigWriter(Mirror mirror, String branch) {
        this(mirror, branch, RetryPolicy.DEFAULT);
    }

    public ConfigWriter(Mirror mirror, String branch, RetryPolicy retry) {
        this.committer = new BranchCommitter(mirror, branch, retry);
    }

    /**
     * Runs {@code edit} on the current tip's files (empty with a null commit when the branch does not exist yet) and
     * pushes the result. Return a change without writes or deletes to leave the branch alone.
     */
    public CommitOutcome write(Function<Snapshot, BranchChange> edit) throws IOException {
        return committer.commit(edit);
    }
}
