package dev.windlass.policy.remediation;

/**
 * The first thing that blocked remediation on a cluster in this pass, as its reason and its words; what blocks later
 * in the same pass is not kept. One per cluster and pass, filled by each policy's {@link PolicyPass}.
 */
final class FirstBlock {
    private RemediationBlock reason;
    private String text;

    /** Keeps {@code reason} and {@code text} unless something blocked earlier in the pass. */
    void note(RemediationBlock reason, String text) {
        if (this.reason != null) return;
        this.reason = reason;
        this.text = text;
    }

    /** Null when nothing blocked. */
    RemediationBlock reason() { return reason; }

    /** Null when nothing blocked. */
    String text() { return text; }
}
