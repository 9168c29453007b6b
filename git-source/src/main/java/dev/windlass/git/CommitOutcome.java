package dev.windlass.git;

import java.util.Optional;

/** How a write to a branch ended. Losing races and unreachable remotes are outcomes, not exceptions. */
public sealed interface CommitOutcome {

    /** The remote branch now points at {@code commit}; {@code attempts} counts pushes, 1 when no race was lost. */
    record Committed(String commit, int attempts) implements CommitOutcome {}

    /** The edits would not change the tree at {@code tip} (empty when the branch does not exist), so nothing was pushed. */
    record Unchanged(Optional<String> tip) implements CommitOutcome {}

    /** Nothing was written: the remote refused, stayed unreachable, or kept moving for every attempt. */
    record Failed(String reason, int attempts) implements CommitOutcome {}
}
