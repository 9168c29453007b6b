package dev.windlass.engine.review;

import dev.windlass.policy.model.ReviewSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Which heads to review: every branch the settings select, and every pull request head ({@code refs/pull/N/head})
 * that no selected branch points at. A pull request head that points at a selected branch's head only lends that
 * review its number, so one pull request gets one comment. Heads already contained in the main branch (merged, or
 * never diverged) are not reviewed.
 */
public final class ReviewTargets {
    private ReviewTargets() {}

    public interface Ancestry { boolean contains(String commit, String ancestor) throws IOException; }

    public static List<ReviewTarget> find(SortedMap<String, String> branches, SortedMap<Integer, String> pulls, ReviewSettings settings,
                                          String mainBranch, String statusBranch, Ancestry mainContains) throws IOException {
        List<ReviewTarget> out = new ArrayList<>();
        if (!settings.enabled()) return out;
        String mainHead = branches.get(mainBranch);
        java.util.Set<Integer> lent = new java.util.TreeSet<>();
        for (Map.Entry<String, String> b : branches.entrySet()) {
            if (!settings.reviews(b.getKey(), mainBranch, statusBranch)) continue;
            if (mainHead != null && mainContains.contains(mainHead, b.getValue())) continue;
            int pull = 0;
            if (settings.pullRequests()) {
                for (Map.Entry<Integer, String> p : pulls.entrySet()) {
                    if (p.getValue().equals(b.getValue())) {
                        pull = p.getKey();
                        break;
                    }
                }
            }
            if (pull > 0) lent.add(pull);
            out.add(new ReviewTarget(b.getKey(), b.getKey(), pull, b.getValue()));
        }
        if (!settings.pullRequests()) return out;
        for (Map.Entry<Integer, String> p : pulls.entrySet()) {
            if (lent.contains(p.getKey())) continue;
            if (mainHead != null && mainContains.contains(mainHead, p.getValue())) continue;
            out.add(new ReviewTarget("pull/" + p.getKey(), "", p.getKey(), p.getValue()));
        }
        return out;
    }
}
