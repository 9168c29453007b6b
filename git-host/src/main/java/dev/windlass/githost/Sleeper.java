package dev.windlass.githost;

import java.time.Duration;

/** Waits between tries; tests pass one that only records the waits. */
@FunctionalInterface
interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
}
