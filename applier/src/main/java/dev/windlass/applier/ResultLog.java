package dev.windlass.applier;

import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The results one cluster's work has so far, by action. Shared between the workers and the deadline: once the deadline
 * has ended the work, later results are dropped, so what was reported stays what is returned. Actions may finish out
 * of order (applications applied side by side); results are always given in the actions' order.
 */
final class ResultLog {

    private final List<Action> actions;
    private final ActionResult[] done;
    private final boolean[] started;
    private int next;  // the first action without a result
    private boolean ended;

    ResultLog(List<Action> actions) {
        this.actions = List.copyOf(actions);
        this.done = new ActionResult[this.actions.size()];
        this.started = new boolean[this.actions.size()];
    }

    List<Action> actions() { return actions; }

    /** The action at {@code index} is being sent now; false once the work was ended: the caller stops. */
    synchronized boolean start(int index) {
        if (ended) return false;
        started[index] = true;
        return true;
    }

    /** The result of the first action without one; false once the work was ended: the caller stops. */
    synchronized boolean record(ActionResult result) { return record(next, result); }

    /** The result of the action at {@code index}; false once the work was ended: the caller stops. */
    synchronized boolean record(int index, ActionResult result) {
        if (ended) return false;
        done[index] = result;
        while (next < done.length && done[next] != null) next++;
        return true;
    }

    /** The results so far, in the actions' order. */
    synchronized List<ActionResult> results() {
        List<ActionResult> out = new ArrayList<>();
        for (ActionResult r : done) if (r != null) out.add(r);
        return out;
    }

    /**
     * Ends the work early (deadline passed, or a bug): actions with results keep them, those started without one get
     * {@code current} (they may have been in flight; when none was marked started, the first without a result), the
     * rest {@code rest}. In the actions' order.
     */
    synchronized List<ActionResult> endWith(String current, String rest, boolean transientFailure) {
        ended = true;
        boolean anyInFlight = false;
        for (int i = 0; i < done.length; i++) anyInFlight |= started[i] && done[i] == null;
        List<ActionResult> out = new ArrayList<>();
        for (int i = 0; i < done.length; i++) {
            if (done[i] != null) {
                out.add(done[i]);
            } else {
                boolean inFlight = anyInFlight ? started[i] : i == next;
                out.add(ActionResult.failed(actions.get(i), inFlight ? current : rest, transientFailure));
            }
        }
        return out;
    }

    /** Every action failed with one message, for a cluster that cannot be worked on at all. */
    List<ActionResult> allFailed(String message, boolean transientFailure) {
        return endWith(message, message, transientFailure);
    }
}
