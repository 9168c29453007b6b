package dev.windlass.engine.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.engine.MutableClock;
import dev.windlass.engine.http.ProbeAnswer;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The bodies of /readyz and /healthz: what an operator reads when a probe fails. */
class PassHealthTest {
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T09:00:00Z"));
    final Duration interval = Duration.ofSeconds(30);

    @Test
    void notReadyBeforeTheFirstSuccessfulPassAndSaysWhyAPassFailed() {
        PassHealth health = new PassHealth(clock, null);
        assertEquals(new ProbeAnswer(false, "not ready: no pass has succeeded yet (running since 2026-11-21T09:00:00Z)"),
                health.readiness(interval));
        health.passStarted();
        clock.advance(Duration.ofSeconds(2));
        health.passFailed("fetch from https://bot:hunter2@git.example.com/fleet.git failed: not authorized\n\tat some.Frame");
        assertEquals(new ProbeAnswer(false, "not ready: no pass has succeeded yet (running since 2026-11-21T09:00:00Z)\n"
                + "last pass failed at 2026-11-21T09:00:02Z: fetch from https://git.example.com/fleet.git failed: not authorized"),
                health.readiness(interval));
        assertEquals(new ProbeAnswer(true, "ok\nlast pass: 2026-11-21T09:00:02Z failed: fetch from https://git.example.com/fleet.git "
                + "failed: not authorized"), health.liveness(interval));
    }

    @Test
    void readyWhileTheLastSuccessIsWithinTheWindowAndNotWhileShuttingDown() {
        PassHealth health = new PassHealth(clock, null);
        health.passStarted();
        health.passSucceeded("source 1234567, 3 actions, 0 failed");
        clock.advance(Duration.ofSeconds(90));
        assertEquals(new ProbeAnswer(true, "ready\nlast successful pass: 2026-11-21T09:00:00Z source 1234567, 3 actions, 0 failed"),
                health.readiness(interval));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(503, health.readiness(interval).status());
        health.passStarted();
        health.passSucceeded("source 1234567, 0 actions, 0 failed");
        health.stopping();
        assertEquals(new ProbeAnswer(false, "not ready: shutting down"), health.readiness(interval));
    }

    @Test
    void livenessShowsThePassInFlightUntilItHasRunTooLong() {
        PassHealth health = new PassHealth(clock, null);
        health.passStarted();
        clock.advance(PassHealth.MIN_STUCK);
        assertEquals(new ProbeAnswer(true, "ok\npass in flight since 2026-11-21T09:00:00Z"), health.liveness(interval));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(new ProbeAnswer(false, "stuck: no pass started or finished for 601s (limit 600s)\n"
                + "pass in flight since 2026-11-21T09:00:00Z"), health.liveness(interval));
    }

    @Test
    void aReplicaStandingByForTheLeaseIsReadyAndLiveAndSaysWhy() {
        PassHealth health = new PassHealth(clock, null);
        health.passStarted();
        health.standingBy("no pass: windlass-system/windlass is held by replica-b");
        clock.advance(Duration.ofHours(1));
        assertEquals(new ProbeAnswer(true, "ready, standing by: no pass: windlass-system/windlass is held by replica-b"),
                health.readiness(interval));
        health.passStarted();
        health.standingBy("no pass: windlass-system/windlass is held by replica-b");
        assertEquals(new ProbeAnswer(true, "ok\nlast pass: 2026-11-21T10:00:00Z no pass: windlass-system/windlass is held by replica-b"),
                health.liveness(interval));
    }

    @Test
    void aShardedReplicaIsNotReadyUntilItKnowsWhoHoldsEachShard() {
        PassHealth health = new PassHealth(clock, null);
        java.util.concurrent.atomic.AtomicReference<java.util.Optional<String>> unknown =
                new java.util.concurrent.atomic.AtomicReference<>(java.util.Optional.of("the state of Lease windlass-system/windlass-shard-1 is not known yet"));
        health.readyOnlyWhen(unknown::get);
        health.passStarted();
        health.standingBy("no pass: replica-a holds 0 of 2 shards (shard 0: replica-b, shard 1: no one known)");
        assertEquals(new ProbeAnswer(false, "not ready: the state of Lease windlass-system/windlass-shard-1 is not known yet"),
                health.readiness(interval));
        unknown.set(java.util.Optional.empty());
        assertEquals(new ProbeAnswer(true, "ready, standing by: no pass: replica-a holds 0 of 2 shards (shard 0: replica-b, shard 1: no one known)"),
                health.readiness(interval));
        health.passStarted();
        health.passSucceeded("source 1234567, 0 actions, 0 failed");
        clock.advance(Duration.ofMinutes(2));
        assertEquals(false, health.readiness(interval).ok(), "its shards' last pass is older than three intervals");
    }
}
