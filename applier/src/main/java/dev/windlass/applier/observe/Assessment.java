package dev.windlass.applier.observe;

import dev.windlass.policy.state.Health;

/** The health of one object and, when it is not Healthy, why; the message is "" otherwise unless worth saying. */
public record Assessment(Health health, String message) {

    public static final Assessment HEALTHY = new Assessment(Health.Healthy, "");

    public static Assessment healthy(String message) { return new Assessment(Health.Healthy, message); }

    public static Assessment progressing(String message) { return new Assessment(Health.Progressing, message); }

    public static Assessment degraded(String message) { return new Assessment(Health.Degraded, message); }

    public static Assessment suspended(String message) { return new Assessment(Health.Suspended, message); }
}
