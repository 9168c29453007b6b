package dev.windlass.policy.fence;

import java.util.Optional;

/**
 * Asked right before a write to a cluster or to the status branch: empty while this replica may write, otherwise why
 * it may not. A replica with leader election answers from its lease (engine's {@code lease} package); a single engine
 * is always {@link #OPEN}. It must answer fast and never block: it is asked before every write.
 */
@FunctionalInterface
public interface WriteFence {

    /** Never refuses. */
    WriteFence OPEN = Optional::empty;

    Optional<String> refusal();
}
