package dev.windlass.policy.review;

import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A plan reduced to what a reviewer approved: one line per action and per held action, with the content hash of
 * what would be written. Two plans with the same {@link Plan#hash()} have the same digest; when hashes differ, the
 * digests say how, in a few lines that fit a commit message.
 */
public final class PlanDigest {
    private PlanDigest() {}

    public static List<String> of(Plan plan) {
        List<String> lines = new ArrayList<>();
        for (Action a : plan.actions()) lines.add(line(a));
        for (HeldAction h : plan.held()) lines.add(line(h.action()) + " held: " + h.reason().text());
        return List.copyOf(new TreeSet<>(lines));
    }

    /** "+ line" for what the executed plan does and the reviewed one did not, "- line" for the reverse; at most {@code max} lines. */
    public static List<String> diff(List<String> reviewed, List<String> executed, int max) {
        Set<String> was = new TreeSet<>(reviewed);
        Set<String> now = new TreeSet<>(executed);
        List<String> out = new ArrayList<>();
        for (String l : now) if (!was.contains(l)) out.add("+ " + l);
        for (String l : was) if (!now.contains(l)) out.add("- " + l);
        if (out.isEmpty() && !was.equals(now)) out.add("~ the same actions, in a different order or with different reasons");
        if (out.size() <= max) return out;
        List<String> cut = new ArrayList<>(out.subList(0, max));
        cut.add("… and " + (out.size() - max) + " more");
        return cut;
    }

    private static String line(Action a) {
        String content = a.desired() == null ? "" : " @" + a.desired().hash().substring(0, Math.min(8, a.desired().hash().length()));
        return a.operation() + " " + a.object() + " on " + a.cluster() + " (" + a.app() + ")" + content;
    }
}
