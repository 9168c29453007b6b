package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Plays the kubelet for a Pod: Pending until the delay has passed, then Running with Ready=True; under a never-ready
 * fault it runs but its containers sit in CrashLoopBackOff, so Ready stays False. Pods are not bound to nodes.
 */
final class PodController implements Controller<Pod> {

    @Override public Class<Pod> type() {
        return Pod.class;
    }

    @Override public boolean apply(Pod pod, Progress progress) {
        PodStatusBuilder status = new PodStatusBuilder().withQosClass("BestEffort");
        if (progress.stage() == Progress.Stage.ROLLING_OUT) {
            pod.setStatus(status.withPhase("Pending")
                    .withConditions(condition("PodScheduled", "True", progress.sinceText())).build());
            return true;
        }
        boolean ready = progress.ready();
        String at = progress.dueText();
        String flag = ready ? "True" : "False";
        List<ContainerStatus> containers = new ArrayList<>();
        List<Container> declared = pod.getSpec() == null ? List.of() : pod.getSpec().getContainers();
        for (Container c : declared) {
            ContainerStatusBuilder cs = new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                    .withImageID("").withContainerID("containerd://" + progress.revisionOf(pod) + "-" + c.getName())
                    .withReady(ready).withStarted(ready).withRestartCount(ready ? 0 : 5);
            if (ready) {
                cs.withNewState().withNewRunning().withStartedAt(at).endRunning().endState();
            } else {
                cs.withNewState().withNewWaiting().withReason("CrashLoopBackOff")
                        .withMessage("back-off restarting failed container").endWaiting().endState();
            }
            containers.add(cs.build());
        }
        pod.setStatus(status.withPhase("Running")
                .withStartTime(progress.sinceText())
                .withHostIP("10.0.0.1")
                .withPodIP(podIp(pod))
                .withConditions(condition("PodScheduled", "True", progress.sinceText()),
                        condition("Initialized", "True", progress.sinceText()),
                        condition("ContainersReady", flag, at),
                        condition("Ready", flag, at))
                .withContainerStatuses(containers)
                .build());
        return true;
    }

    private static PodCondition condition(String type, String status, String at) {
        return new PodConditionBuilder().withType(type).withStatus(status).withLastTransitionTime(at).build();
    }

    private static String podIp(Pod pod) {
        int h = pod.getMetadata().getUid().hashCode() & 0xffff;
        return "10.244." + (h >> 8) + "." + Math.max(2, h & 0xff);
    }
}
