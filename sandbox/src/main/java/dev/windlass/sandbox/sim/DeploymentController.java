package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;

/**
 * Reports a Deployment the way the deployment controller does: rolling out with no ready replicas, then all replicas
 * ready and available; under a never-ready fault, Progressing=False with ProgressDeadlineExceeded, as a rollout whose
 * pods never pass their readiness probe ends up.
 */
final class DeploymentController implements Controller<Deployment> {

    @Override public Class<Deployment> type() {
        return Deployment.class;
    }

    @Override public boolean apply(Deployment deployment, Progress progress) {
        int wanted = Controller.orDefault(deployment.getSpec() == null ? null : deployment.getSpec().getReplicas(), 1);
        int ready = progress.ready() ? wanted : 0;
        String replicaSet = progress.revisionOf(deployment);
        String at = progress.changedAt();
        DeploymentCondition available = ready >= wanted
                ? condition("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", at)
                : condition("Available", "False", "MinimumReplicasUnavailable",
                        "Deployment does not have minimum availability.", at);
        DeploymentCondition progressing = switch (progress.stage()) {
            case ROLLING_OUT -> condition("Progressing", "True", "ReplicaSetUpdated",
                    "ReplicaSet \"" + replicaSet + "\" is progressing.", at);
            case READY -> condition("Progressing", "True", "NewReplicaSetAvailable",
                    "ReplicaSet \"" + replicaSet + "\" has successfully progressed.", at);
            case STUCK -> condition("Progressing", "False", "ProgressDeadlineExceeded",
                    "ReplicaSet \"" + replicaSet + "\" has timed out progressing.", at);
        };
        deployment.setStatus(new DeploymentStatusBuilder()
                .withObservedGeneration(progress.generation())
                .withReplicas(wanted)
                .withUpdatedReplicas(wanted)
                .withReadyReplicas(ready)
                .withAvailableReplicas(ready)
                .withUnavailableReplicas(wanted - ready > 0 ? wanted - ready : null)
                .withConditions(available, progressing)
                .build());
        return true;
    }

    private static DeploymentCondition condition(String type, String status, String reason, String message, String at) {
        return new DeploymentConditionBuilder().withType(type).withStatus(status).withReason(reason)
                .withMessage(message).withLastTransitionTime(at).withLastUpdateTime(at).build();
    }
}
