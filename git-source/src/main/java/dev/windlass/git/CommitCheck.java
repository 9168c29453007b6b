package dev.windlass.git;

/**
 * What checking one commit's signature against the engine's trusted keys found.
 *
 * @param commit  the full commit id
 * @param outcome what was found, as data: decisions read this, never a message
 * @param key     the signing key's fingerprint (OpenPGP: hex, SSH: {@code SHA256:...}), null when the commit is unsigned
 *                or its signature names no key
 * @param signer  who the trusted keys say the key belongs to (an OpenPGP user id, an allowed_signers principal); null
 *                unless verified
 */
public record CommitCheck(String commit, Outcome outcome, String key, String signer) {

    public enum Outcome {
        /** Signed by a trusted key, and the signature matches the commit. */
        VERIFIED,
        /** The commit carries no signature. */
        UNSIGNED,
        /** Signed by a key that is not among the trusted keys. */
        UNKNOWN_KEY,
        /** Signed by a trusted key, but the signature does not match the commit (altered after signing). */
        BAD_SIGNATURE,
        /** Signed by a trusted key that had expired when the commit was made, or outside its allowed_signers validity. */
        KEY_EXPIRED,
        /** Signed by a trusted OpenPGP key that carries a revocation. */
        KEY_REVOKED,
        /** The signature is of a kind the engine does not check (X.509) or cannot be read. */
        UNREADABLE_SIGNATURE,
        /** The engine was given no trusted keys: nothing can be verified. */
        NO_TRUSTED_KEYS;

        public boolean verified() { return this == VERIFIED; }
    }

    public boolean verified() { return outcome.verified(); }

    /** Seven characters of the commit id, as people read them. */
    public String shortCommit() { return commit.substring(0, Math.min(7, commit.length())); }
}
