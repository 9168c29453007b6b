package dev.windlass.git;

import dev.windlass.policy.source.SignatureOutcome;

import java.io.IOException;
import org.eclipse.jgit.api.errors.JGitInternalException;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.ConfigConstants;
import org.eclipse.jgit.lib.GpgConfig;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.SignatureVerifier;
import org.eclipse.jgit.lib.SignatureVerifiers;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Checks a commit's signature with JGit's own signature verification ({@link SignatureVerifiers}: it takes the
 * signature out of the commit and hands the signed bytes to the verifier for the signature's format), against the
 * engine's {@link TrustedKeys} only: SSH signatures by JGit's verifier from {@code org.eclipse.jgit.ssh.apache} with
 * the trusted {@code allowed_signers} file, OpenPGP signatures by {@link TrustedOpenPgpVerifier}. Nothing here parses
 * a signature by hand.
 */
final class CommitSignatures {
    static {
        // The OpenPGP verifier JGit would find on the class path looks in the process's GnuPG home; this one looks only in
        // the trusted keys handed in with each check.
        SignatureVerifiers.set(GpgConfig.GpgFormat.OPENPGP, new TrustedOpenPgpVerifier());
    }

    private CommitSignatures() {}

    /** A {@link GpgConfig} carrying the trusted keys to the verifiers: never the repository's or the user's Git config. */
    static final class KeysConfig extends GpgConfig {
        private final TrustedKeys trusted;

        KeysConfig(TrustedKeys trusted) {
            super(config(trusted));
            this.trusted = trusted;
        }

        TrustedKeys trusted() { return trusted; }

        private static Config config(TrustedKeys trusted) {
            Config config = new Config();
            if (trusted.allowedSigners() != null) {
                config.setString(ConfigConstants.CONFIG_GPG_SECTION, ConfigConstants.CONFIG_SSH_SUBSECTION,
                        ConfigConstants.CONFIG_KEY_SSH_ALLOWED_SIGNERS_FILE, trusted.allowedSigners().toString());
            }
            return config;
        }
    }

    static CommitCheck check(Repository repository, String commitId, TrustedKeys trusted) throws IOException {
        RevCommit commit;
        try (RevWalk walk = new RevWalk(repository)) {
            commit = walk.parseCommit(ObjectId.fromString(commitId));
        }
        byte[] signature = commit.getRawGpgSignature();
        if (signature == null) return new CommitCheck(commitId, SignatureOutcome.UNSIGNED, null, null);
        if (trusted.isEmpty()) return new CommitCheck(commitId, SignatureOutcome.NO_TRUSTED_KEYS, null, null);
        GpgConfig.GpgFormat format = SignatureVerifiers.getFormat(signature);
        if (format != GpgConfig.GpgFormat.OPENPGP && format != GpgConfig.GpgFormat.SSH) {
            return new CommitCheck(commitId, SignatureOutcome.UNREADABLE_SIGNATURE, null, null);
        }
        SignatureVerifier.SignatureVerification v;
        try {
            v = SignatureVerifiers.verify(repository, new KeysConfig(trusted), commit);
        } catch (IOException | JGitInternalException | IllegalArgumentException e) {
            return new CommitCheck(commitId, SignatureOutcome.UNREADABLE_SIGNATURE, null, null);
        }
        if (v == null) return new CommitCheck(commitId, SignatureOutcome.UNREADABLE_SIGNATURE, null, null);
        return new CommitCheck(commitId, outcome(format, v), v.keyFingerprint(), v.verified() ? v.keyUser() : null);
    }

    /** What each verifier's answer means; see {@link TrustedOpenPgpVerifier} and JGit's SSH verifier. */
    private static SignatureOutcome outcome(GpgConfig.GpgFormat format, SignatureVerifier.SignatureVerification v) {
        if (v.verified() && v.trustLevel() == SignatureVerifier.TrustLevel.FULL) return SignatureOutcome.VERIFIED;
        if (v.expired()) return SignatureOutcome.KEY_EXPIRED;
        if (v.trustLevel() == SignatureVerifier.TrustLevel.UNKNOWN) return SignatureOutcome.UNKNOWN_KEY;
        if (format == GpgConfig.GpgFormat.OPENPGP && v.trustLevel() == SignatureVerifier.TrustLevel.NEVER) return SignatureOutcome.KEY_REVOKED;
        return SignatureOutcome.BAD_SIGNATURE;
    }
}
