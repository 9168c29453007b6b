package dev.windlass.policy.plan;

import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.Health;
import java.util.List;

/**
 * An application on one cluster as this pass sees it.
 *
 * @param sync  Synced when the cluster matches Git, OutOfSync when actions (or held actions) remain, Unknown when unreachable
 * @param drift fields changed on the cluster and not corrected (self-heal off), as {@code Kind ns/name: field}
 * @param note  why the target is Unknown or held, "" otherwise
 * @param released recorded objects this application lets go of untouched, because another application now declares them
 * @param revision the revision this plan brings the cluster to ("" when unknown)
 * @param variant  for a rendered application, the variant the cluster gets; "" otherwise
 * @param rendered for a rendered application, the hash of what is rendered for the cluster: the app's revision on it; ""
 *                 otherwise
 */
public record TargetPlan(String cluster, Sync sync, Health health, String healthMessage, List<String> drift, String note,
                         List<dev.windlass.policy.model.ObjectRef> released, String revision, String variant,
                         String rendered) {
    public TargetPlan {
        drift = List.copyOf(drift);
        released = List.copyOf(released);
    }
}
