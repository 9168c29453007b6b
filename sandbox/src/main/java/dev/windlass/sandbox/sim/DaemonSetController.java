package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatusBuilder;

/**
 * Reports a DaemonSet with one pod per node of its cluster (taints and node selectors are not simulated). Once ready,
 * the pods on NotReady nodes count as not ready, so a node fault shows up in DaemonSet health as it would.
 */
final class DaemonSetController implements Controller<DaemonSet> {

    @Override public Class<DaemonSet> type() {
        return DaemonSet.class;
    }

    @Override public boolean apply(DaemonSet set, Progress progress) {
        int desired = progress.nodes();
        int ready = progress.ready() ? progress.readyNodes() : 0;
        int updated = progress.stage() == Progress.Stage.ROLLING_OUT ? 0 : desired;
        set.setStatus(new DaemonSetStatusBuilder()
                .withObservedGeneration(progress.generation())
                .withDesiredNumberScheduled(desired)
                .withCurrentNumberScheduled(desired)
                .withNumberMisscheduled(0)
                .withUpdatedNumberScheduled(updated)
                .withNumberReady(ready)
                .withNumberAvailable(ready)
                .withNumberUnavailable(desired - ready > 0 ? desired - ready : null)
                .build());
        return true;
    }
}
