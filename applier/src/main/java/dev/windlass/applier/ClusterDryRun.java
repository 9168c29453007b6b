package dev.windlass.applier;

import dev.windlass.applier.cluster.ClusterConnection;
import dev.windlass.applier.write.Attempt;
import dev.windlass.applier.write.ActionWrite;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One cluster's share of a stage asked of its API server with {@code dryRun=All}: the server validates and
 * defaults every object and stores nothing. Nothing stored also means a namespace or CRD this stage would create
 * does not exist for the actions after it; those are reported Skipped, since the server cannot check them yet.
 */
final class ClusterDryRun implements ClusterWork {

    static final String NOT_SUPPORTED = "dry-run not supported by this cluster";

    private final String cluster;
    private final ResultLog log;
    private final ActionWrite writes;
    private final Set<String> newNamespaces = new HashSet<>();
    private final Set<String> newKinds = new HashSet<>();

    ClusterDryRun(String cluster, List<Action> actions, ActionWrite writes) {
        this.cluster = cluster;
        this.log = new ResultLog(actions);
        this.writes = writes;
    }

    @Override public List<ActionResult> run(ClusterConnection connection) {
        if (connection instanceof ClusterConnection.Broken broken) {
            return log.allFailed("cluster " + cluster + " unreachable: " + broken.message(), true);
        }
        var connected = (ClusterConnection.Connected) connection;
        boolean lost = false;
        for (Action action : log.actions()) {
            ActionResult result;
            if (!connected.serverSideApply()) {
                result = ActionResult.ok(action, Outcome.Skipped, NOT_SUPPORTED);
            } else if (lost) {
                result = ActionResult.failed(action, "skipped: cluster " + cluster + " unreachable", true);
            } else if (waitsForThisStage(action) != null) {
                result = ActionResult.ok(action, Outcome.Skipped, "not checked: " + waitsForThisStage(action));
            } else {
                Attempt attempt = writes.dryRun(connected.client(), action);
                result = attempt.result();
                lost = attempt.clusterUnreachable();
                noteCreated(result);
            }
            if (!log.record(result)) break;
        }
        return log.results();
    }

    @Override public List<ActionResult> endWith(String current, String rest, boolean transientFailure) {
        return log.endWith(current, rest, transientFailure);
    }

    /** What the action needs that only this stage would create, or null. */
    private String waitsForThisStage(Action action) {
        ObjectRef ref = action.object();
        if (ref.namespaced() && newNamespaces.contains(ref.namespace())) {
            return "namespace " + ref.namespace() + " does not exist yet (this stage creates it first)";
        }
        if (newKinds.contains(ref.group() + "/" + ref.kind())) {
            return "the cluster serves " + ref.kind() + " only once this stage has created its CustomResourceDefinition";
        }
        return null;
    }

    private void noteCreated(ActionResult result) {
        Action a = result.action();
        if (result.outcome() != Outcome.Created || a.operation() == Operation.Delete || a.desired() == null) return;
        ObjectRef ref = a.object();
        if (ref.group().isEmpty() && ref.kind().equals("Namespace")) newNamespaces.add(ref.name());
        if (ref.group().equals("apiextensions.k8s.io") && ref.kind().equals("CustomResourceDefinition")
                && a.desired().body().get("spec") instanceof Map<?, ?> spec && spec.get("names") instanceof Map<?, ?> names) {
            newKinds.add(spec.get("group") + "/" + names.get("kind"));
        }
    }
}
