package dev.windlass.git;

import java.util.Optional;

/** How a write to a branch ended. Losing races and unreachable remotes are outcomes, not exceptions. */
public sealed interface CommitOutcome {

    /** Whether the branch holds what was written: pushed now, or already there. */
    default boolean landed() {
        return switch (this) {
            case Committed _, Unchanged _ -> true;
            case Failed _, Conflict _, Fenced _ -> false;
        };
    }

    /** The remote branch now points at {@code commit}; {@code attempts} counts pushes, 1 when no race was lost. */
    record Committed(String commit, int attempts) implements CommitOutcome {}

    /** The edits would not change the tree at {@code tip} (empty when the branch does not exist), so nothing was pushed. */
    record Unchanged(Optional<String> tip) implements CommitOutcome {}

    /** Nothing was written: the remote refused, stayed unreachable, or kept moving for every attempt. */
    record Failed(String reason, int attempts) implements CommitOutcome {}

    /**
     * Nothing was written: another writer changed {@code paths} since this writer read them (see
     * {@link BranchChange#bases()}); {@code tip} is the commit that holds their changes. Read again and recompute.
     */
    record Conflict(java.util.SortedSet<String> paths, String tip) implements CommitOutcome {}

    /** Nothing was written: the writer's fence refused (this replica does not hold its lease), for {@code reason}. */
    record Fenced(String reason) implements CommitOutcome {}
}
