package dev.windlass.applier;

import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.applier.inventory.StageRecording;
import dev.windlass.applier.write.Attempt;
import dev.windlass.applier.write.ActionWrite;
import dev.windlass.applier.write.CrdEstablishment;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.ActionResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;

/**
 * One cluster's share of a stage: its actions in the stage's order, one at a time, each application's inventory
 * recorded before its objects are written. Once the cluster stops answering, the remaining actions fail as
 * skipped instead of each waiting for its own timeout. The write fence is asked before each action: once it refuses
 * (this replica lost its lease), nothing more is written and the remaining actions fail with its reason.
 */
final class ClusterRun implements ClusterWork {

    /** How long a CRD may take to be served before the actions after it go ahead anyway (and may fail, transiently). */
    private static final Duration CRD_ESTABLISHED = Duration.ofSeconds(30);

    private final String cluster;
    private final ResultLog log;
    private final ActionWrite writes;
    private final WriteFence fence;

    ClusterRun(String cluster, List<Action> actions, ActionWrite writes, WriteFence fence) {
        this.cluster = cluster;
        this.log = new ResultLog(actions);
        this.writes = writes;
        this.fence = fence;
    }

    /** One result per action, in order. */
    @Override public List<ActionResult> run(ClusterConnection connection) {
        if (connection instanceof ClusterConnection.Broken broken) {
            return log.endWith("cluster " + cluster + " unreachable: " + broken.message(),
                    "skipped: cluster " + cluster + " unreachable", true);
        }
        var client = ((ClusterConnection.Connected) connection).client();
        StageRecording inventory = new StageRecording(log.actions());
        boolean lost = false;
        String refused = null;
        for (Action action : log.actions()) {
            ActionResult result;
            if (refused == null) refused = fence.refusal().map(why -> "not written: " + why).orElse(null);
            if (refused != null) {
                result = ActionResult.failed(action, refused, true);
            } else if (lost) {
                result = ActionResult.failed(action, "skipped: cluster " + cluster + " unreachable", true);
            } else {
                Attempt attempt = attempt(client, action, inventory);
                result = attempt.result();
                lost = attempt.clusterUnreachable();
            }
            inventory.after(result);
            if (!log.record(result)) return log.results();
        }
        if (!lost && refused == null && fence.refusal().isEmpty()) inventory.finish(client);
        return log.results();
    }

    private Attempt attempt(KubernetesClient client, Action action, StageRecording inventory) {
        var refused = inventory.before(client, action);
        if (refused.isPresent()) return refused.get();
        Attempt attempt = writes.attempt(client, action);
        if (!CrdEstablishment.wrote(attempt.result())) return attempt;
        return new Attempt(CrdEstablishment.await(client, attempt.result(), CRD_ESTABLISHED), false);
    }

    @Override public List<ActionResult> endWith(String current, String rest, boolean transientFailure) {
        return log.endWith(current, rest, transientFailure);
    }
}
