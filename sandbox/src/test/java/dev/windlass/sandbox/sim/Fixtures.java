package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/** Shared test inputs: a fixed start instant, a simulator on it, and a small Deployment. */
final class Fixtures {

    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    static final Duration DELAY = Duration.ofSeconds(2);

    private Fixtures() {}

    static Simulator simulator() {
        return new Simulator(DELAY, Clock.fixed(T0, ZoneOffset.UTC));
    }

    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    static Deployment deployment(String name, Integer replicas) {
        return new DeploymentBuilder()
                .withNewMetadata().withName(name).addToLabels("app", name).endMetadata()
                .withNewSpec().withReplicas(replicas)
                .withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.27").endContainer().endSpec()
                .endTemplate().endSpec().build();
    }
}
