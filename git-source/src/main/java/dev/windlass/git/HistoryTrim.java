package dev.windlass.git;

/** What {@link StatusWriter#trimHistory} did. */
public sealed interface HistoryTrim {

    /** The branch was within its limit (or does not exist); nothing was pushed. */
    record Within(int commits) implements HistoryTrim {}

    /**
     * The branch was rewritten: its newest {@code kept} commits on top of one root commit that holds the state the
     * {@code dropped} older commits ended with and says so in its message.
     */
    record Trimmed(int dropped, int kept, String newTip) implements HistoryTrim {}

    /** Another writer moved the branch meanwhile, or the push failed; the next trim tries again. */
    record Failed(String reason) implements HistoryTrim {}
}
