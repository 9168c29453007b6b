package dev.windlass.policy.plan;

import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import java.util.List;

/**
 * One write to one cluster, with the reason it is needed.
 *
 * @param apiVersion the version to address the object in (from Git, or for a delete, as recorded when applied)
 * @param fields   the fields that differ between Git and the cluster (empty for create and delete)
 * @param desired  the object to send; null for {@link Operation#Delete}
 * @param strategy how to send it, already chosen for this cluster (the applier never re-decides)
 * @param force    take ownership of fields another manager owns (server-side apply); off unless the app opts in
 * @param drift    whether the write corrects drift (the cluster changed, not Git): what decides, where it matters, that a
 *                 correction held back is still drift to show
 */
public record Action(String app, String cluster, ObjectRef object, String apiVersion, Operation operation, ActionReason reason,
                     List<String> fields, Manifest desired, ApplyStrategy strategy, boolean force, boolean drift) {

    public Action { fields = List.copyOf(fields); }

    /** A write that is not a drift correction. */
    public Action(String app, String cluster, ObjectRef object, String apiVersion, Operation operation, ActionReason reason,
                  List<String> fields, Manifest desired, ApplyStrategy strategy, boolean force) {
        this(app, cluster, object, apiVersion, operation, reason, fields, desired, strategy, force, false);
    }

    /** {@code Create Deployment web/frontend on eu-1}. */
    public String describe() { return operation + " " + object + " on " + cluster; }
}
