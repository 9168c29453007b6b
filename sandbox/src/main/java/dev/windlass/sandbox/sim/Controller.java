package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.List;

/**
 * The status-writing half of one built-in controller (or of the kubelet, for Pods). Kept a closed set: these are the
 * kinds the simulator knows how to make ready; anything else is stored and left alone.
 */
sealed interface Controller<T extends HasMetadata>
        permits DeploymentController, StatefulSetController, DaemonSetController, JobController, PodController,
        ClaimController, LoadBalancerController {

    List<Controller<?>> ALL = List.of(
            new DeploymentController(), new StatefulSetController(), new DaemonSetController(), new JobController(),
            new PodController(), new ClaimController(), new LoadBalancerController());

    Class<T> type();

    /**
     * Puts on {@code object} the status its controller would report at this point of its progress. Returns false
     * when the controller has nothing to say about this object (a Service that is not a LoadBalancer).
     */
    boolean apply(T object, Progress progress);

    static int orDefault(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
