package dev.windlass.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.git.Signers;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.TrustedKeys;
import dev.windlass.policy.model.VerifySettings;
import dev.windlass.policy.model.VerifySettings.Mode;
import dev.windlass.policy.source.SignatureOutcome;
import dev.windlass.policy.source.Verification;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which revision the gate lets a pass apply, on real commits signed by the real git (keys from ssh-keygen made now):
 * AllSince's starting point (the verified revision, else {@code since}, else the whole history), a force-push, and the
 * idle path that checks nothing again.
 */
class CommitGateTest {
    @TempDir Path dir;

    record Story(Signers signers, Mirror mirror, TrustedKeys keys, Signers.Signing alice) implements AutoCloseable {
        String commit(String message, Signers.Signing signing) throws Exception {
            return signers.commit(message, signing, Map.of(message.replace(' ', '-') + ".txt", message));
        }

        String fetchedTip() throws Exception {
            mirror.fetch();
            return mirror.resolve("main").orElseThrow();
        }

        @Override public void close() throws Exception {
            mirror.close();
            signers.close();
        }
    }

    Story story() throws Exception {
        Signers s = new Signers(dir.resolve("signers"));
        Path key = s.sshKey("alice");
        s.trustSsh(key, "alice@example.com");
        Mirror mirror = Mirror.open(dir.resolve("mirror"), GitRemote.anonymous(s.work.resolve(".git").toString()));
        return new Story(s, mirror, TrustedKeys.load(s.trusted), new Signers.Ssh(key));
    }

    static CommitGate.SettingsAt always(VerifySettings v) { return commit -> v; }

    @Test void allSinceStartsAfterSinceWhenNothingIsVerifiedYet() throws Exception {
        try (Story st = story()) {
            String old = st.commit("old unsigned", Signers.UNSIGNED);
            String since = st.commit("since, unsigned", Signers.UNSIGNED);
            st.commit("signed 1", st.alice());
            String tip = st.commit("signed 2", st.alice());
            assertEquals(tip, st.fetchedTip());

            CommitGate withSince = new CommitGate(st.mirror(), "main", st.keys(), Mode.Off);
            CommitGate.Decision d = withSince.decide(tip, null, always(new VerifySettings(Mode.AllSince, since)));
            assertEquals(tip, d.apply());
            assertEquals(2, withSince.checks(), "the two commits after since");

            CommitGate whole = new CommitGate(st.mirror(), "main", st.keys(), Mode.AllSince);
            CommitGate.Decision all = whole.decide(tip, null, always(VerifySettings.NONE));
            assertNull(all.apply(), "nothing verified: nothing to apply");
            assertEquals(new Verification.Refusal(old, SignatureOutcome.UNSIGNED, null), all.verification().refused(), "the oldest unsigned commit");
        }
    }

    @Test void allSinceAfterAForcePushChecksFromSinceAndTheIdlePathChecksNothing() throws Exception {
        try (Story st = story()) {
            String since = st.commit("since", st.alice());
            String verified = st.commit("verified", st.alice());
            st.fetchedTip();
            CommitGate gate = new CommitGate(st.mirror(), "main", st.keys(), Mode.AllSince);
            CommitGate.SettingsAt settings = always(new VerifySettings(Mode.AllSince, since));
            assertEquals(verified, gate.decide(verified, null, settings).apply());

            // A force-push of a new line from `since`: one unsigned commit under a signed tip.
            st.signers().git("reset", "-q", "--hard", since);
            String unsigned = st.commit("unsigned after the force-push", Signers.UNSIGNED);
            String tip = st.commit("signed tip after the force-push", st.alice());
            assertEquals(tip, st.fetchedTip());
            Verification recorded = new Verification(Mode.AllSince, verified, verified, null);
            CommitGate.Decision d = gate.decide(tip, recorded, settings);
            assertEquals(verified, d.apply(), "still the verified revision, which the mirror keeps");
            assertEquals(new Verification.Refusal(unsigned, SignatureOutcome.UNSIGNED, null), d.verification().refused());

            long checks = gate.checks();
            assertEquals(d, gate.decide(tip, recorded, commit -> { throw new AssertionError("no settings read on the idle path"); }));
            assertEquals(checks, gate.checks(), "no check while the tip stays");
            assertEquals(d, gate.decided(tip));
        }
    }

    @Test void tipLetsASignedForcePushThroughAndRefusesAnUnsignedOne() throws Exception {
        try (Story st = story()) {
            String base = st.commit("base", st.alice());
            String verified = st.commit("verified", st.alice());
            st.fetchedTip();
            CommitGate gate = new CommitGate(st.mirror(), "main", st.keys(), Mode.Tip);
            assertEquals(verified, gate.decide(verified, null, always(VerifySettings.NONE)).apply());
            Verification recorded = new Verification(Mode.Tip, verified, verified, null);

            st.signers().git("reset", "-q", "--hard", base);
            String unsigned = st.commit("unsigned force-push", Signers.UNSIGNED);
            assertEquals(unsigned, st.fetchedTip());
            CommitGate.Decision refused = gate.decide(unsigned, recorded, always(VerifySettings.NONE));
            assertEquals(verified, refused.apply());
            assertEquals(SignatureOutcome.UNSIGNED, refused.verification().refused().outcome());

            String signed = st.commit("signed on top", st.alice());
            assertEquals(signed, st.fetchedTip());
            assertEquals(signed, gate.decide(signed, refused.verification(), always(VerifySettings.NONE)).apply());
        }
    }
}
