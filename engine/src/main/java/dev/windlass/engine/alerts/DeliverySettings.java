package dev.windlass.engine.alerts;

import java.time.Duration;

/**
 * How the workers send: how long one send may take, the backoff between tries (doubling from {@code firstBackoff} up
 * to {@code maxBackoff}), and after how many tries a delivery is given up (recorded Failed, with why).
 * The default tries for about 3 hours: 1 s, 2 s, ... then every 5 minutes, 40 tries.
 */
public record DeliverySettings(Duration timeout, Duration firstBackoff, Duration maxBackoff, int maxAttempts, int queueCapacity) {
    public static final DeliverySettings DEFAULT = new DeliverySettings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofMinutes(5), 40, 10_000);

    public DeliverySettings {
        if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be at least 1");
    }

    Duration backoff(int tried) {
        Duration wait = firstBackoff.multipliedBy(1L << Math.min(tried - 1, 20));
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }
}
