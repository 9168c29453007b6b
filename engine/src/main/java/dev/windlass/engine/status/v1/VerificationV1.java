package dev.windlass.engine.status.v1;

import dev.windlass.policy.model.VerifySettings;
import dev.windlass.policy.source.SignatureOutcome;
import dev.windlass.policy.source.Verification;

/**
 * {@code status/verification.yaml}: the signature check of the config branch ({@link Verification}). {@code applying}
 * is what an engine that starts applies while the tip fails its check; {@code message} is for people and never read
 * back. The mode and the outcome are written as their names, and a word the format does not name is refused.
 */
public record VerificationV1(String branch, VerifySettings.Mode mode, String applying, String tip, RefusedV1 refused, String message) {

    public record RefusedV1(String commit, SignatureOutcome outcome, String key) {}

    public static VerificationV1 of(String branch, Verification v) {
        RefusedV1 refused = v.refused() == null ? null : new RefusedV1(v.refused().commit(), v.refused().outcome(), v.refused().key());
        return new VerificationV1(branch, v.mode(), v.applying(), v.tip(), refused, v.text());
    }

    public Verification toDomain() {
        if (mode == null) throw new IllegalArgumentException("mode is missing");
        if (refused != null && (refused.commit() == null || refused.outcome() == null)) {
            throw new IllegalArgumentException("refused needs its commit and outcome");
        }
        return new Verification(mode, applying, tip,
                refused == null ? null : new Verification.Refusal(refused.commit(), refused.outcome(), refused.key()));
    }
}
