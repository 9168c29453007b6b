package dev.windlass.applier;

import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The results one cluster's work has so far. Shared between the worker and the deadline: once the deadline has
 * ended the work, later results are dropped, so what was reported stays what is returned.
 */
final class ResultLog {

    private final List<Action> actions;
    private final List<ActionResult> done = new ArrayList<>();
    private boolean ended;

    ResultLog(List<Action> actions) { this.actions = List.copyOf(actions); }

    List<Action> actions() { return actions; }

    /** False once the work was ended: the caller stops. */
    synchronized boolean record(ActionResult result) {
        if (ended) return false;
        done.add(result);
        return true;
    }

    synchronized List<ActionResult> results() { return List.copyOf(done); }

    /**
     * Ends the work early (deadline passed, or a bug): actions with results keep them, the first one without gets
     * {@code current} (it may have been in flight), the rest {@code rest}.
     */
    synchronized List<ActionResult> endWith(String current, String rest, boolean transientFailure) {
        ended = true;
        List<ActionResult> out = new ArrayList<>(done);
        for (int i = done.size(); i < actions.size(); i++) {
            out.add(ActionResult.failed(actions.get(i), i == done.size() ? current : rest, transientFailure));
        }
        return out;
    }

    /** Every action failed with one message, for a cluster that cannot be worked on at all. */
    List<ActionResult> allFailed(String message, boolean transientFailure) {
        return endWith(message, message, transientFailure);
    }
}
