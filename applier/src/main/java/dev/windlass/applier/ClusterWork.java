package dev.windlass.applier;

import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.policy.plan.ActionResult;
import java.util.List;

/** One cluster's share of a stage, run by the {@link Applier} under that cluster's deadline. */
interface ClusterWork {

    /** One result per action, in the stage's order. */
    List<ActionResult> run(ClusterConnection connection);

    /** The results when the work is cut short: see {@link ResultLog#endWith}. */
    List<ActionResult> endWith(String current, String rest, boolean transientFailure);
}
