package dev.windlass.git;

import java.util.List;

/**
 * What merging a review head (a branch or pull request head) into a base commit would give, as computed by
 * {@link Mirror#previewMerge}. Nothing is checked out and no ref moves.
 */
public sealed interface MergePreview {

    /**
     * The merge succeeds. {@code commit} is the head itself when {@code fastForward} (the base is one of its
     * ancestors); otherwise it is a synthetic merge commit in the mirror with parents (base, head), which no ref points
     * at and which {@link Mirror#snapshot} and {@link Mirror#changes} read like any other commit. The same base and
     * head always give the same {@code commit}.
     */
    record Merged(String commit, String tree, boolean fastForward) implements MergePreview {}

    /** The head is already the base or one of its ancestors: there is nothing to merge. */
    record UpToDate(String base) implements MergePreview {}

    /** The merge stops on conflicts in {@code paths} (sorted, never empty), which the author has to resolve. */
    record Conflicted(List<String> paths) implements MergePreview {
        public Conflicted {
            paths = List.copyOf(paths);
        }
    }
}
