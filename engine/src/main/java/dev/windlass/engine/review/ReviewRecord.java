package dev.windlass.engine.review;

import java.util.List;

/**
 * What the engine remembers about one review, in {@code reviews/<ref>.yaml} on the status branch; the plan itself
 * is {@code plans/<ref>.md} beside it.
 *
 * @param ref         a branch name, or {@code pull/N} for a pull request head with no reviewed branch
 * @param pull        the pull request number, 0 when none is known (then nothing is posted on the host)
 * @param head        the head commit the plan was made for; a new head commit is planned again
 * @param base        the main branch's commit the head was merged into
 * @param merge       the merge preview commit (the head itself when it fast-forwards), null on a conflict
 * @param planHash    the reviewed plan's hash
 * @param digest      the reviewed plan, one line per action (see PlanDigest), to tell how a later plan differs
 * @param commentId   the pull request comment that shows the plan, 0 until one is posted
 * @param published   what the Git host said the last time: "comment 123, status success", or the error
 * @param retryAfter  when publishing failed or was rate limited: when to try again (ISO instant), else null
 * @param refreshed   with requireUndiverged, the fresh plan published for a merge that diverged, else null
 */
public record ReviewRecord(String ref, String branch, int pull, String head, String base, String merge, String planHash,
                           boolean failing, String summary, List<String> digest, long commentId, String published,
                           String retryAfter, Refreshed refreshed) {

    /** A fresh plan published for merge commit {@code commit} because it differs from the reviewed one. */
    public record Refreshed(String commit, String planHash, List<String> digest) {}

    public ReviewRecord {
        digest = digest == null ? List.of() : List.copyOf(digest);
        branch = branch == null ? "" : branch;
    }

    public static final String RECORDS = "reviews/";

    public static String recordPath(String ref) { return RECORDS + ref + ".yaml"; }

    public static String planPath(String ref) { return "plans/" + ref + ".md"; }

    /** How people name it: "feature/a (#12)". */
    public String title() { return pull > 0 && !ref.equals("pull/" + pull) ? ref + " (#" + pull + ")" : pull > 0 ? "#" + pull : ref; }

    ReviewRecord withPublication(long id, String text, String retry) {
        return new ReviewRecord(ref, branch, pull, head, base, merge, planHash, failing, summary, digest, id, text, retry, refreshed);
    }

    ReviewRecord withRefreshed(Refreshed r) {
        return new ReviewRecord(ref, branch, pull, head, base, merge, planHash, failing, summary, digest, commentId, published, retryAfter, r);
    }
}
