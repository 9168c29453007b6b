package dev.windlass.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.source.SignatureOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits signed by the real git with keys the real gpg and ssh-keygen made just now, checked against a trusted
 * directory as an operator would fill it (gpg --armor --export, allowed_signers).
 */
class CommitSignaturesTest {
    @TempDir static Path dir;
    static Signers signers;
    static String alice;
    static String mallory;
    static Path sshAlice;
    static Path sshMallory;
    static TrustedKeys trusted;

    @BeforeAll static void keys() throws Exception {
        signers = new Signers(dir);
        alice = signers.gpgKey("Alice", "alice@example.com");
        mallory = signers.gpgKey("Mallory", "mallory@example.com");
        sshAlice = signers.sshKey("alice");
        sshMallory = signers.sshKey("mallory");
        signers.trustGpg(alice, "alice.asc");
        signers.trustSsh(sshAlice, "alice@example.com");
        trusted = TrustedKeys.load(signers.trusted);
    }

    @AfterAll static void stopAgent() throws Exception {
        signers.close();
    }

    static CommitCheck check(String commit, TrustedKeys keys) throws Exception {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(signers.work.resolve(".git").toFile()).build()) {
            return CommitSignatures.check(repo, commit, keys);
        }
    }

    static String commit(String message, Signers.Signing signing) throws Exception {
        return signers.commit(message, signing, Map.of("f/" + message.replace(' ', '-') + ".txt", message));
    }

    @Test void anOpenPgpSignatureByATrustedKeyIsVerified() throws Exception {
        String c = commit("gpg alice", new Signers.Gpg(alice));
        CommitCheck check = check(c, trusted);
        assertEquals(SignatureOutcome.VERIFIED, check.outcome());
        assertEquals(alice, check.key());
        assertTrue(check.signer().contains("alice@example.com"), check.signer());
    }

    @Test void anOpenPgpSignatureByAKeyNotInTheDirectoryIsAnUnknownKey() throws Exception {
        String c = commit("gpg mallory", new Signers.Gpg(mallory));
        CommitCheck check = check(c, trusted);
        assertEquals(SignatureOutcome.UNKNOWN_KEY, check.outcome());
        assertEquals(mallory, check.key(), "names the key that signed, so the operator can tell whose it is");
        assertNull(check.signer());
    }

    @Test void anSshSignatureByAnAllowedSignerIsVerified() throws Exception {
        String c = commit("ssh alice", new Signers.Ssh(sshAlice));
        CommitCheck check = check(c, trusted);
        assertEquals(SignatureOutcome.VERIFIED, check.outcome());
        assertEquals("alice@example.com", check.signer());
        assertTrue(check.key().startsWith("SHA256:"), check.key());
    }

    @Test void anSshSignatureByAKeyNotAllowedIsAnUnknownKey() throws Exception {
        String c = commit("ssh mallory", new Signers.Ssh(sshMallory));
        CommitCheck check = check(c, trusted);
        assertEquals(SignatureOutcome.UNKNOWN_KEY, check.outcome());
        assertTrue(check.key().startsWith("SHA256:"), check.key());
    }

    @Test void anUnsignedCommitIsUnsigned() throws Exception {
        assertEquals(SignatureOutcome.UNSIGNED, check(commit("plain", Signers.UNSIGNED), trusted).outcome());
    }

    @Test void aCommitChangedAfterItWasSignedHasABadSignature() throws Exception {
        String gpg = signers.tampered(commit("gpg to alter", new Signers.Gpg(alice)), "altered after signing");
        assertEquals(SignatureOutcome.BAD_SIGNATURE, check(gpg, trusted).outcome());
        String ssh = signers.tampered(commit("ssh to alter", new Signers.Ssh(sshAlice)), "altered after signing");
        assertEquals(SignatureOutcome.BAD_SIGNATURE, check(ssh, trusted).outcome());
    }

    @Test void withoutTrustedKeysNothingIsVerified() throws Exception {
        String c = commit("gpg alice again", new Signers.Gpg(alice));
        assertEquals(SignatureOutcome.NO_TRUSTED_KEYS, check(c, TrustedKeys.NONE).outcome());
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertEquals(SignatureOutcome.NO_TRUSTED_KEYS, check(c, TrustedKeys.load(empty)).outcome());
    }

    @Test void aRevokedKeyIsRefusedEvenForItsEarlierCommits() throws Exception {
        String carol = signers.gpgKey("Carol", "carol@example.com");
        String c = commit("gpg carol", new Signers.Gpg(carol));
        Path keys = Files.createDirectories(dir.resolve("trusted-carol"));
        Files.writeString(keys.resolve("carol.asc"), Files.readString(exported(carol)));
        assertEquals(SignatureOutcome.VERIFIED, check(c, TrustedKeys.load(keys)).outcome());
        signers.revokeGpg(carol);
        Files.writeString(keys.resolve("carol.asc"), Files.readString(exported(carol)));
        assertEquals(SignatureOutcome.KEY_REVOKED, check(c, TrustedKeys.load(keys)).outcome());
    }

    @Test void aFileThatIsNotAKeyIsAnErrorNamingIt() throws Exception {
        Path keys = Files.createDirectories(dir.resolve("broken"));
        Files.writeString(keys.resolve("ops.asc"), "this is not a key\n");
        var e = assertThrows(java.io.IOException.class, () -> TrustedKeys.load(keys));
        assertTrue(e.getMessage().contains("ops.asc") && e.getMessage().contains("gpg --armor --export"), e.getMessage());
    }

    private static Path exported(String fingerprint) throws Exception {
        signers.trustGpg(fingerprint, "export-" + fingerprint + ".asc");
        return signers.trusted.resolve("export-" + fingerprint + ".asc");
    }
}
