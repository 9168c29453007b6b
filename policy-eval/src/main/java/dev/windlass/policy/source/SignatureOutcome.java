package dev.windlass.policy.source;

/** What checking a commit's signature against the engine's trusted keys found: data that decisions read. */
public enum SignatureOutcome {
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
