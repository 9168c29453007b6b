package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;

/**
 * Reports a StatefulSet: while rolling out (or stuck) no replica is ready and the current revision stays the one
 * before; once ready, every replica is ready, current and updated, and currentRevision equals updateRevision.
 */
final class StatefulSetController implements Controller<StatefulSet> {

    @Override public Class<StatefulSet> type() {
        return StatefulSet.class;
    }

    @Override public boolean apply(StatefulSet set, Progress progress) {
        int wanted = Controller.orDefault(set.getSpec() == null ? null : set.getSpec().getReplicas(), 1);
        String update = progress.revisionOf(set);
        StatefulSetStatus old = set.getStatus();
        String previous = old == null || old.getCurrentRevision() == null ? update : old.getCurrentRevision();
        boolean ready = progress.ready();
        int n = ready ? wanted : 0;
        set.setStatus(new StatefulSetStatusBuilder()
                .withObservedGeneration(progress.generation())
                .withReplicas(wanted)
                .withReadyReplicas(n)
                .withAvailableReplicas(n)
                .withCurrentReplicas(n)
                .withUpdatedReplicas(n)
                .withCurrentRevision(ready ? update : previous)
                .withUpdateRevision(update)
                .withCollisionCount(0)
                .build());
        return true;
    }
}
