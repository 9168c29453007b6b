package dev.windlass.engine.reconcile;

import dev.windlass.git.CommitCheck;
import dev.windlass.git.Mirror;
import dev.windlass.git.TrustedKeys;
import dev.windlass.policy.model.VerifySettings;
import dev.windlass.policy.model.VerifySettings.Mode;
import dev.windlass.policy.source.Verification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which revision of the config branch a pass applies when commits must be signed by a trusted key: the tip when
 * it passes the check, else the last revision that did (recorded on the status branch, so it survives a restart), else
 * none. Checked once per new tip: while the branch stays where it is, a pass asks nothing and verifies nothing again.
 *
 * <p>The mode in force is the stricter of the engine's flag ({@code --verify-commits}), the Settings of the verified
 * revision and the Settings of the tip. The repo can so turn the check on or tighten it, but a commit that loosens or
 * removes it is itself checked under the mode it would remove: anyone who can push could otherwise push that first.
 * With the engine's flag, nothing in the repo turns the check off.
 */
public final class CommitGate {
    private static final Logger log = LoggerFactory.getLogger(CommitGate.class);

    /** Reads a commit's {@code Settings.spec.verify} (the repo parsed at that commit). */
    public interface SettingsAt {
        VerifySettings verify(String commit) throws IOException;
    }

    private final Mirror mirror;
    private final String branch;
    private final TrustedKeys keys;
    private final Mode required;
    /** The tip the last decision was made for, and that decision: reused while the tip stays. */
    private String decidedTip;
    private Decision decided;
    private final Map<String, VerifySettings> settings = new HashMap<>();
    private long checks;

    /**
     * @param required what the engine's flag requires whatever the repo says ({@link Mode#Off}: only what the repo asks)
     */
    public CommitGate(Mirror mirror, String branch, TrustedKeys keys, Mode required) {
        this.mirror = mirror;
        this.branch = branch;
        this.keys = keys;
        this.required = required;
    }

    /**
     * @param apply        the revision to apply; null when nothing has passed the check yet
     * @param verification what to record on the status branch; null when no check is in force
     */
    public record Decision(String apply, Verification verification) {}

    /** The decision already made for {@code tip}, or null when it is a new tip. */
    public synchronized Decision decided(String tip) {
        return tip.equals(decidedTip) ? decided : null;
    }

    /** How many commit signatures this gate has checked since it was made. */
    public synchronized long checks() { return checks; }

    /** Forgets the last decision: the next pass reads the recorded verification again and decides afresh. */
    public synchronized void forget() {
        decidedTip = null;
        decided = null;
    }

    /**
     * @param tip      the branch's tip, as the mirror has it at the start of this pass
     * @param recorded the verification the status branch holds (null: none)
     */
    public synchronized Decision decide(String tip, Verification recorded, SettingsAt settingsAt) throws IOException {
        if (tip.equals(decidedTip)) return decided;
        String verified = recorded == null ? null : recorded.applying();
        if (verified != null && !mirror.has(verified)) {
            throw new IOException("the verified revision " + verified.substring(0, 7) + " recorded on the status branch is no longer in"
                    + " the repository (force-pushed away and collected): nothing is applied until a commit signed by a trusted key is"
                    + " at the tip of " + branch + " and the recorded status/verification.yaml is deleted");
        }
        VerifySettings atTip = settingsOf(tip, settingsAt);
        VerifySettings atVerified = verified == null ? VerifySettings.NONE : settingsOf(verified, settingsAt);
        Mode mode = required.atLeast(atVerified.mode()).atLeast(atTip.mode());
        Decision decision;
        if (mode == Mode.Off) {
            decision = new Decision(tip, null);
        } else {
            CommitCheck failed = firstFailure(mode, verified, tip, verified != null ? atVerified.since() : atTip.since());
            if (failed == null) {
                decision = new Decision(tip, new Verification(mode, tip, tip, null));
                mirror.keep("verified/" + branch, tip);
            } else {
                Verification v = new Verification(mode, verified, tip, new Verification.Refusal(failed.commit(), failed.outcome(), failed.key()));
                log.warn("config branch {}: {}", branch, v.text());
                decision = new Decision(verified, v);
                if (verified != null) mirror.keep("verified/" + branch, verified);
            }
        }
        decidedTip = tip;
        decided = decision;
        return decision;
    }

    /** The first commit that fails the check in {@code mode}, oldest first; null when all pass. */
    private CommitCheck firstFailure(Mode mode, String verified, String tip, String since) throws IOException {
        List<String> toCheck = new ArrayList<>();
        if (mode == Mode.Tip) {
            toCheck.add(tip);
        } else {
            // Every commit after the verified revision; after a force-push (or before any), every commit after `since`.
            String base = verified != null && mirror.isAncestor(verified, tip) ? verified
                    : since != null && mirror.has(since) && mirror.isAncestor(since, tip) ? since : null;
            List<String> between = new ArrayList<>(mirror.commitsBetween(base, tip, Integer.MAX_VALUE));
            java.util.Collections.reverse(between);
            toCheck.addAll(between);
        }
        for (String commit : toCheck) {
            CommitCheck check = mirror.checkSignature(commit, keys);
            checks++;
            if (!check.verified()) return check;
        }
        return null;
    }

    private VerifySettings settingsOf(String commit, SettingsAt settingsAt) throws IOException {
        VerifySettings known = settings.get(commit);
        if (known != null) return known;
        VerifySettings read;
        try {
            read = settingsAt.verify(commit);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (settings.size() > 16) settings.clear();
        settings.put(commit, read);
        return read;
    }
}
