package dev.windlass.engine.review;

import dev.windlass.engine.reconcile.Fleet;
import dev.windlass.engine.lease.ReplicaIdentity;
import dev.windlass.engine.status.CommitMessage;
import dev.windlass.engine.status.CommitWriter;
import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.BranchChange;
import dev.windlass.git.CommitOutcome;
import dev.windlass.git.Mirror;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.ReviewSettings;
import dev.windlass.policy.plan.Event;
import dev.windlass.policy.review.PlanDigest;
import dev.windlass.policy.review.ReviewInput;
import dev.windlass.policy.review.ReviewMarkdown;
import dev.windlass.git.CommitCheck;
import dev.windlass.git.TrustedKeys;
import dev.windlass.policy.model.VerifySettings;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After each pass of the main branch: plans every reviewed head that has a new commit, writes
 * {@code plans/<ref>.md} and {@code reviews/<ref>.yaml} to the status branch in one commit, and publishes the plan on
 * the Git host when one is configured. A review whose head is gone (or merged) is removed from the status branch.
 * Settings come from the main branch only: a branch under review never picks where its plan or the token goes.
 */
public final class ReviewPass {
    private static final Logger log = LoggerFactory.getLogger(ReviewPass.class);

    private final Mirror mirror;
    private final String mainBranch;
    private final StatusWriter status;
    private final Fleet fleet;
    private final Clock clock;
    private final Supplier<EngineState> state;
    private final Function<String, String> env;
    private final Supplier<CommitWriter> writer;
    /** The engine's trusted keys, when it checks signatures; null: it was given none. */
    private TrustedKeys keys;
    private VerifySettings.Mode required = VerifySettings.Mode.Off;
    private volatile Runnable reviewed = () -> {};
    /** What a run found nothing to do with, while it is all still the same; null after a run that did something. */
    private Inputs idle;

    public ReviewPass(Mirror mirror, String mainBranch, StatusWriter status, Fleet fleet, Clock clock, Supplier<EngineState> state,
                      Function<String, String> env) {
        this(mirror, mainBranch, status, fleet, clock, state, env, () -> CommitWriter.unsharded(ReplicaIdentity.generate()));
    }

    /** @param writer the replica, and the shards of its last pass, that each review's status commit names */
    public ReviewPass(Mirror mirror, String mainBranch, StatusWriter status, Fleet fleet, Clock clock, Supplier<EngineState> state,
                      Function<String, String> env, Supplier<CommitWriter> writer) {
        this.writer = writer;
        this.mirror = mirror;
        this.mainBranch = mainBranch;
        this.status = status;
        this.fleet = fleet;
        this.clock = clock;
        this.state = state;
        this.env = env;
    }

    /** @param main the main branch's commit and its parsed content, as the pass just before planned them */
    public synchronized List<ReviewRecord> run(String mainCommit, DesiredState main) throws IOException {
        ReviewSettings settings = main.settings().review();
        List<ReviewTarget> targets = ReviewTargets.find(mirror.listBranches(), mirror.listPullHeads(), settings, mainBranch, status.branch(),
                (commit, ancestor) -> mirror.isAncestor(ancestor, commit));
        Inputs inputs = new Inputs(mainCommit, main, targets, mirror.resolve(status.branch()), keys, required);
        if (inputs.sameAs(idle)) return List.of();
        idle = null;
        Map<String, byte[]> read = ReviewRecords.readFiles(status).files();
        SortedMap<String, ReviewRecord> records = ReviewRecords.parse(read);
        ReviewPublisher publisher = publisher(settings);
        Instant now = clock.instant();
        List<ReviewRecord> published = new ArrayList<>();
        boolean acted = false;
        boolean retryPending = false;
        for (ReviewTarget t : targets) {
            ReviewRecord before = records.remove(t.ref());
            boolean newHead = before == null || !before.head().equals(t.head()) || before.pull() != t.pull();
            retryPending |= before != null && publisher != null && before.retryAfter() != null;
            boolean retry = before != null && publisher != null && before.retryAfter() != null
                    && (before.retryAfter().isEmpty() || !now.isBefore(Instant.parse(before.retryAfter())));
            if (!newHead && !retry) continue;
            acted = true;
            ReviewRecord r = review(t, before, mainCommit, main, publisher, now, read);
            if (r != null) published.add(r);
        }
        // A merge held for a fresh plan (requireUndiverged) keeps its record until the main branch's pass applies it.
        for (ReviewRecord gone : records.values()) {
            if (gone.refreshed() == null) {
                acted = true;
                close(gone, read);
            }
        }
        // Nothing to plan, publish, retry later or close: the same inputs would find the same, so they are not read again.
        if (!acted && !retryPending) idle = inputs;
        reviewed.run();
        return published;
    }

    /**
     * What a run reads: the main branch's commit and its parse (the very object the pass planned), the reviewed heads,
     * the status branch's commit (the records and plans on it), and the signature check in force.
     */
    private record Inputs(String mainCommit, DesiredState main, List<ReviewTarget> targets, Optional<String> statusTip, TrustedKeys keys,
                          VerifySettings.Mode required) {
        boolean sameAs(Inputs other) {
            return other != null && main == other.main && mainCommit.equals(other.mainCommit) && targets.equals(other.targets)
                    && statusTip.equals(other.statusTip) && keys == other.keys && required == other.required;
        }
    }

    /**
     * Marks the reviews of heads not signed by one of {@code keys} while a signature check is in force (the engine's
     * {@code required} mode, or the main branch's Settings): they are still planned, and the plan says the engine would
     * not apply such a commit at the tip of the main branch.
     */
    public synchronized void verifyWith(TrustedKeys keys, VerifySettings.Mode required) {
        this.keys = keys;
        this.required = required;
    }

    /** The plan with a line under its title when the head is not signed by a trusted key and verification is in force. */
    private String withSignatureNote(String markdown, String head, DesiredState main) throws IOException {
        if (required.atLeast(main.settings().verify().mode()) == VerifySettings.Mode.Off) return markdown;
        CommitCheck check = mirror.checkSignature(head, keys == null ? TrustedKeys.NONE : keys);
        if (check.verified()) return markdown;
        String note = "> **Not signed by a trusted key** (`" + check.outcome() + "`): head `" + check.shortCommit()
                + "` is planned all the same, but the engine applies a commit of `" + mainBranch
                + "` only when it is signed by a key it trusts.\n\n";
        int afterTitle = markdown.indexOf("\n\n");
        return afterTitle < 0 ? note + markdown : markdown.substring(0, afterTitle + 2) + note + markdown.substring(afterTitle + 2);
    }

    /** Told after each run, once what it recorded is on the status branch (the engine republishes its view). */
    public void onReviewed(Runnable listener) { this.reviewed = listener == null ? () -> {} : listener; }

    /** @param read the review files this pass read: the base of its change, so it never overwrites a newer record */
    private ReviewRecord review(ReviewTarget t, ReviewRecord before, String mainCommit, DesiredState main, ReviewPublisher publisher,
                                Instant now, Map<String, byte[]> read) throws IOException {
        ReviewInput in = ReviewPlanning.plan(mirror, mainBranch, mainCommit, main, t, state.get(), fleet, now);
        if (in == null) return null;
        String markdown = withSignatureNote(ReviewMarkdown.render(in), t.head(), main);
        String summary = summary(in);
        ReviewRecord r = new ReviewRecord(t.ref(), t.branch(), t.pull(), t.head(), mainCommit, in.mergeCommit(),
                in.mergeable() ? in.headPlan().hash() : null, in.failing(), summary, in.mergeable() ? PlanDigest.of(in.headPlan()) : List.of(),
                before == null ? 0 : before.commentId(), "not published: no review.host in Settings", null, null);
        if (publisher != null && t.pull() > 0) {
            ReviewPublisher.Publication p = publisher.publish(r, ReviewMarkdown.marker(t.ref()), ReviewMarkdown.marker(t.ref()) + "\n" + markdown, in.failing(),
                    summary);
            r = r.withPublication(p.commentId(), p.text(), p.retryAfter());
            log.info("review {}: {}", r.title(), p.text());
        } else if (publisher != null) {
            r = r.withPublication(0, "not published: no pull request is known for this branch (its host exposes none at refs/pull/*/head)", null);
        }
        Event event = new Event.ReviewPlanned(r.title(), summary);
        BranchChange change = BranchChange.of(CommitMessage.of(List.of(event), t.head(), List.of(), writer.get()), "Windlass", "windlass@localhost")
                .write(ReviewRecord.planPath(t.ref()), markdown)
                .write(ReviewRecord.recordPath(t.ref()), StatusFiles.yaml(r))
                .basedOn(read);
        CommitOutcome outcome = status.write(change);
        // Not recorded, it is planned again on the next pass: a conflict means another writer recorded this review meanwhile.
        if (!outcome.landed()) {
            log.warn("the plan for {} was not recorded: {}", r.title(), outcome);
        }
        return r;
    }

    private void close(ReviewRecord gone, Map<String, byte[]> read) throws IOException {
        Event event = new Event.ReviewClosed(gone.title(), mainBranch);
        BranchChange change = BranchChange.of(CommitMessage.of(List.of(event), gone.head(), List.of(), writer.get()), "Windlass", "windlass@localhost")
                .delete(ReviewRecord.planPath(gone.ref()))
                .delete(ReviewRecord.recordPath(gone.ref()))
                .basedOn(read);
        CommitOutcome outcome = status.write(change);
        if (!outcome.landed()) {
            log.warn("the review of {} was not closed, tried again on the next pass: {}", gone.title(), outcome);
        }
    }

    private ReviewPublisher publisher(ReviewSettings settings) {
        return ReviewPublisher.configured(settings.host(), mirror.remote().url(), env);
    }

    /** The summary without Markdown, for commit messages and the commit status. */
    static String summary(ReviewInput in) {
        if (!in.mergeable()) return "conflicts with " + in.mainBranch() + " in " + String.join(", ", in.conflicts());
        String s = ReviewMarkdown.summaryText(in.headPlan());
        if (in.headPlan().hasErrors()) s += " Validation errors.";
        if (in.dryRun().stream().anyMatch(r -> !r.succeeded())) s += " Refused by an API server.";
        return s;
    }
}
