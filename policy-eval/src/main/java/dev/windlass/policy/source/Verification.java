package dev.windlass.policy.source;

import dev.windlass.policy.model.VerifySettings;

/**
 * Where the engine stands with the signatures of the config branch: the mode in force, the revision it applies (the last
 * one that passed the check) and, when the tip did not pass, which commit failed and why. Recorded on the status branch
 * ({@code status/verification.yaml}) so that an engine that restarts keeps applying the verified revision.
 *
 * @param mode     the mode in force: the engine's flag, tightened by the Settings of the verified revision and of the tip
 * @param applying the revision the engine applies; null when no revision has passed yet (nothing is applied)
 * @param tip      the branch's tip when it was last checked
 * @param refused  why the tip is not applied; null when it is
 */
public record Verification(VerifySettings.Mode mode, String applying, String tip, Refusal refused) {

    /**
     * @param commit  the first commit that failed (the tip, or with AllSince one between the verified revision and the tip)
     * @param outcome what its check found
     * @param key     the key that signed it (a fingerprint), null when unsigned or not known
     */
    public record Refusal(String commit, SignatureOutcome outcome, String key) {}

    public boolean refusing() { return refused != null; }

    /**
     * One line for people (status commits, {@code windlass status}, the dashboard), e.g. {@code commit 1a2b3c4 signed by
     * an unknown key ABCD1234...; nothing of it is applied; still applying 9f8e7d6}. Made from the fields; nothing reads it.
     */
    public String text() {
        if (refused == null) return "commit " + shortId(applying) + " verified (" + mode + ")";
        String what = "commit " + shortId(refused.commit()) + " " + outcomeText(refused);
        String tipPart = refused.commit().equals(tip) ? "" : " (on the way to the tip " + shortId(tip) + ")";
        String applied = applying == null ? "no verified revision yet, nothing is applied" : "still applying " + shortId(applying);
        return what + tipPart + "; nothing of " + (refused.commit().equals(tip) ? "it" : "the tip") + " is applied; " + applied;
    }

    private static String outcomeText(Refusal r) {
        String key = r.key() == null ? "" : " " + shortKey(r.key());
        return switch (r.outcome()) {
            case VERIFIED -> "is verified";
            case UNSIGNED -> "is not signed";
            case UNKNOWN_KEY -> "is signed by an unknown key" + key;
            case BAD_SIGNATURE -> "has a signature that does not match it (by key" + key + ")";
            case KEY_EXPIRED -> "is signed by the expired key" + key;
            case KEY_REVOKED -> "is signed by the revoked key" + key;
            case UNREADABLE_SIGNATURE -> "has a signature the engine cannot read (X.509 or damaged)";
            case NO_TRUSTED_KEYS -> "cannot be verified: the engine was given no trusted keys (--trusted-keys)";
        };
    }

    private static String shortId(String commit) {
        return commit == null ? "none" : commit.substring(0, Math.min(7, commit.length()));
    }

    /** A fingerprint as people compare it: its first 16 characters and an ellipsis. */
    private static String shortKey(String key) {
        return key.length() <= 16 ? key : key.substring(0, 16) + "…";
    }
}
