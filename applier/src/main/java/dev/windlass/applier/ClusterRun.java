package dev.windlass.applier;

import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.applier.write.Attempt;
import dev.windlass.applier.write.ClientSideApply;
import dev.windlass.applier.write.CrdEstablishment;
import dev.windlass.applier.write.ServerSideApply;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One cluster's share of a stage: its actions in the stage's order, one at a time. Once the cluster stops
 * answering, the remaining actions fail as skipped instead of each waiting for its own timeout.
 */
final class ClusterRun {

    /** How long a CRD may take to be served before the actions after it go ahead anyway (and may fail, transiently). */
    private static final Duration CRD_ESTABLISHED = Duration.ofSeconds(30);

    private final String cluster;
    private final List<Action> actions;
    private final ClientSideApply clientSide;
    private final ServerSideApply serverSide;
    private final List<ActionResult> done = new ArrayList<>();
    private boolean ended;

    ClusterRun(String cluster, List<Action> actions, ClientSideApply clientSide, ServerSideApply serverSide) {
        this.cluster = cluster;
        this.actions = List.copyOf(actions);
        this.clientSide = clientSide;
        this.serverSide = serverSide;
    }

    /** One result per action, in order. */
    List<ActionResult> run(ClusterConnection connection) {
        if (connection instanceof ClusterConnection.Broken broken) {
            return endWith("cluster " + cluster + " unreachable: " + broken.message(),
                    "skipped: cluster " + cluster + " unreachable", true);
        }
        var client = ((ClusterConnection.Connected) connection).client();
        boolean lost = false;
        for (Action action : actions) {
            ActionResult result;
            if (lost) {
                result = ActionResult.failed(action, "skipped: cluster " + cluster + " unreachable", true);
            } else {
                Attempt attempt = action.strategy() == ApplyStrategy.ServerSide
                        ? serverSide.attempt(client, action)
                        : clientSide.attempt(client, action);
                result = attempt.result();
                lost = attempt.clusterUnreachable();
                if (CrdEstablishment.wrote(result)) result = CrdEstablishment.await(client, result, CRD_ESTABLISHED);
            }
            if (!record(result)) break;
        }
        return snapshot();
    }

    /**
     * Ends the run early (deadline passed, or a bug): actions with results keep them, the first one without
     * gets {@code current} (it may have been in flight), the rest {@code rest}. Later results are ignored.
     */
    synchronized List<ActionResult> endWith(String current, String rest, boolean transientFailure) {
        ended = true;
        List<ActionResult> out = new ArrayList<>(done);
        for (int i = done.size(); i < actions.size(); i++) {
            out.add(ActionResult.failed(actions.get(i), i == done.size() ? current : rest, transientFailure));
        }
        return out;
    }

    private synchronized boolean record(ActionResult result) {
        if (ended) return false;
        done.add(result);
        return true;
    }

    private synchronized List<ActionResult> snapshot() { return List.copyOf(done); }
}
