package dev.windlass.git;

import dev.windlass.policy.source.SignatureOutcome;

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
public record CommitCheck(String commit, SignatureOutcome outcome, String key, String signer) {

    public boolean verified() { return outcome.verified(); }

    /** Seven characters of the commit id, as people read them. */
    public String shortCommit() { return commit.substring(0, Math.min(7, commit.length())); }
}
