package dev.windlass.applier;

import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.applier.inventory.InventoryBodies;
import dev.windlass.applier.write.ActionWrite;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.ActionResult;
import java.util.ArrayList;
import java.util.List;

/**
 * One cluster's share of a whole plan: its part of each stage in turn, moving to the next stage only when every action
 * of the last one succeeded there. Clusters run their pipelines side by side and never wait for one another's stages.
 * Results come stage by stage; a stage never reached has none.
 */
final class ClusterPipeline implements ClusterWork {

    private final List<ClusterRun> stages = new ArrayList<>();
    private int current;  // guarded by this: the stage running now

    /** @param fence asked before each stage and each write in it (see {@link ClusterRun}) */
    ClusterPipeline(String cluster, List<List<Action>> actionsByStage, ActionWrite writes, WriteFence fence, LaneThreads threads,
                    int inFlight, InventoryBodies inventoryBodies) {
        for (List<Action> actions : actionsByStage) {
            stages.add(new ClusterRun(cluster, actions, writes, fence, threads, inFlight, inventoryBodies));
        }
    }

    @Override public List<ActionResult> run(ClusterConnection connection) {
        List<ActionResult> all = new ArrayList<>();
        for (int i = 0; i < stages.size(); i++) {
            synchronized (this) {
                current = i;
            }
            List<ActionResult> results = stages.get(i).run(connection);
            all.addAll(results);
            if (results.stream().anyMatch(r -> !r.succeeded())) break;
        }
        return all;
    }

    /** The stages finished keep their results, the running one ends as {@link ResultLog#endWith} says, later ones have none. */
    @Override public synchronized List<ActionResult> endWith(String now, String rest, boolean transientFailure) {
        List<ActionResult> all = new ArrayList<>();
        for (int i = 0; i < current; i++) all.addAll(stages.get(i).endWith(now, rest, transientFailure));
        all.addAll(stages.get(current).endWith(now, rest, transientFailure));
        return all;
    }
}
