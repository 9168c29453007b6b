package dev.windlass.engine.review;

import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.Mirror;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.ReviewSettings;
import dev.windlass.policy.plan.Event;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.render.PlanMarkdown;
import dev.windlass.policy.review.PlanDigest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What was reviewed is what gets applied: when the main branch's new commit contains a reviewed head (merged, or
 * squashed to the same tree as its merge preview), the plan about to be executed is compared with the plan
 * published for that head. Equal: the status commit says {@code applied reviewed plan <hash>}. Different (the main
 * branch moved, or the fleet changed since review): Git stays the truth and the plan is applied, with
 * {@code plan diverged from review}, a short diff of the two plans in the status commit and a new pull request
 * comment; or, with {@code review.requireUndiverged}, the apply is held until the fresh plan has been published and
 * is still the same on the next pass.
 */
public final class Pinning {
    private static final Logger log = LoggerFactory.getLogger(Pinning.class);
    static final int DIFF_LINES = 12;

    private final Mirror mirror;
    private final StatusWriter status;
    private final Function<String, String> env;

    public Pinning(Mirror mirror, StatusWriter status, Function<String, String> env) {
        this.mirror = mirror;
        this.status = status;
        this.env = env;
    }

    /**
     * @param hold   apply nothing in this pass
     * @param notes  lines for the status commit's body (the plan diffs)
     * @param writes status-branch files to write (null value: delete), in the pass's status commit
     * @param read   the review files as read when this was decided: the base of {@code writes}
     */
    public record PinDecision(boolean hold, List<Event> events, List<String> notes, Map<String, byte[]> writes, Map<String, byte[]> read) {
        public static final PinDecision NONE = new PinDecision(false, List.of(), List.of(), Map.of(), Map.of());
    }

    public PinDecision check(String source, DesiredState desired, Plan plan) throws IOException {
        List<ReviewRecord> merged = new ArrayList<>();
        Map<String, byte[]> read = ReviewRecords.readFiles(status).files();
        for (ReviewRecord r : ReviewRecords.parse(read).values()) {
            if (r.merge() == null || r.planHash() == null) continue;
            // A review recorded long ago whose head and preview the mirror no longer holds cannot be what was merged.
            if (!mirror.has(r.head()) || !mirror.has(r.merge())) continue;
            if (mirror.isAncestor(r.head(), source) || mirror.treeOf(source).equals(mirror.treeOf(r.merge()))) merged.add(r);
        }
        if (merged.isEmpty()) return PinDecision.NONE;
        ReviewSettings settings = desired.settings().review();
        ReviewPublisher publisher = publisher(settings);
        boolean hold = false;
        List<Event> events = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<String, byte[]> writes = new TreeMap<>();
        List<String> digest = PlanDigest.of(plan);
        for (ReviewRecord r : merged) {
            if (r.planHash().equals(plan.hash())) {
                events.add(new Event.ReviewApplied(r.title(), plan.hash()));
                forget(r, writes);
                continue;
            }
            List<String> diff = PlanDigest.diff(r.digest(), digest, DIFF_LINES);
            boolean republished = r.refreshed() != null && r.refreshed().commit().equals(source) && r.refreshed().planHash().equals(plan.hash());
            if (settings.requireUndiverged() && !republished) {
                hold = true;
                events.add(new Event.ReviewDivergedHeld(r.title(), r.planHash(), plan.hash()));
                notes.add("Plan diverged from review of " + r.title() + ":");
                diff.forEach(l -> notes.add("  " + l));
                writes.put(ReviewRecord.planPath(r.ref()), PlanMarkdown.render(plan, r.ref() + " as merged (" + source.substring(0, 7) + ")")
                        .getBytes(StandardCharsets.UTF_8));
                writes.put(ReviewRecord.recordPath(r.ref()), StatusFiles.yaml(r.withRefreshed(new ReviewRecord.Refreshed(source, plan.hash(), digest))));
                announce(publisher, r, source, plan, diff, "It is **held** (`requireUndiverged`): this is the fresh plan; it is applied on the "
                        + "next pass if it is still the same.");
                continue;
            }
            if (republished) {
                events.add(new Event.ReviewRepublishedApplied(r.title(), plan.hash()));
            } else {
                events.add(new Event.ReviewDivergedApplied(r.title(), r.planHash(), plan.hash()));
                notes.add("Plan diverged from review of " + r.title() + ":");
                diff.forEach(l -> notes.add("  " + l));
                announce(publisher, r, source, plan, diff, "Git stays the truth: it was applied.");
            }
            forget(r, writes);
        }
        return new PinDecision(hold, events, notes, writes, read);
    }

    private static void forget(ReviewRecord r, Map<String, byte[]> writes) {
        writes.put(ReviewRecord.recordPath(r.ref()), null);
        writes.put(ReviewRecord.planPath(r.ref()), null);
    }

    private void announce(ReviewPublisher publisher, ReviewRecord r, String source, Plan plan, List<String> diff, String outcome) {
        if (publisher == null || r.pull() <= 0) return;
        StringBuilder b = new StringBuilder("<!-- windlass-diverged: ").append(r.ref()).append(" -->\n")
                .append("### Windlass: the merge's plan differs from the one reviewed here\n\n")
                .append("Merge commit `").append(source, 0, 12).append("` plans as `").append(plan.hash()).append("`; this pull request's reviewed plan was `")
                .append(r.planHash()).append("` (the main branch moved, or the fleet changed since review). ").append(outcome)
                .append("\n\n```diff\n");
        diff.forEach(l -> b.append(l).append('\n'));
        b.append("```\n");
        var outcomeOfPost = publisher.announce(r.pull(), b.toString());
        log.info("review {}: divergence comment {}", r.title(), ReviewPublisher.text(outcomeOfPost));
    }

    private ReviewPublisher publisher(ReviewSettings settings) {
        return ReviewPublisher.configured(settings.host(), mirror.remote().url(), env);
    }
}
