package dev.windlass.policy.alert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.ClusterStep.State;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.Reachability;
import dev.windlass.policy.state.RolloutState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertEventsTest {
    static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    static RolloutState rollout(RolloutState.Result result, String message, ClusterStep... steps) {
        return new RolloutState("r2", "c2", "r1", "c1", "canary", "healthy for 60s", result, message, 2, T0, null, List.of(steps));
    }

    static EngineState app(RolloutState r) {
        AppStatus a = new AppStatus("web", "apps/web/app.yaml", "r2", "c2", true, List.of(), List.of("eu-1", "eu-2"), List.of(), List.of(),
                r, List.of(), null, List.of());
        return EngineState.of("c2", Map.of("web", a), Map.of());
    }

    static List<AlertKind> kinds(List<AlertEvent> events) { return events.stream().map(AlertEvent::kind).toList(); }

    @Test
    void aFailingRolloutTellsWaveStartedWaveFailedRolledBackOnceEach() {
        EngineState pending = app(rollout(RolloutState.Result.Progressing, "",
                new ClusterStep("eu-1", State.Pending, 1, null, null, null, null), new ClusterStep("eu-2", State.Pending, 2, null, null, null, null)));
        EngineState started = app(rollout(RolloutState.Result.Progressing, "",
                new ClusterStep("eu-1", State.Progressing, 1, T0, null, null, null), new ClusterStep("eu-2", State.Pending, 2, null, null, null, null)));
        // A rollback marks every step it touched RolledBack; which cluster failed is recorded beside them.
        RolloutState rolledBack = rollout(RolloutState.Result.RolledBack, "eu-1 was Degraded past its deadline",
                new ClusterStep("eu-1", State.RolledBack, 1, T0, null, T0.plusSeconds(90), null), new ClusterStep("eu-2", State.Pending, 2, null, null, null, null));
        EngineState failed = app(new RolloutState(rolledBack.revision(), rolledBack.source(), rolledBack.previousRevision(), rolledBack.previousSource(),
                rolledBack.policy(), rolledBack.gate(), rolledBack.result(), rolledBack.message(), rolledBack.waves(), rolledBack.startedAt(), T0.plusSeconds(90),
                rolledBack.clusters(), List.of("eu-1")));

        assertEquals(List.of(AlertKind.RolloutStarted), kinds(AlertEvents.between(EngineState.EMPTY, pending, "c2", T0)));
        List<AlertEvent> second = AlertEvents.between(pending, started, "c2", T0.plusSeconds(10));
        assertEquals(List.of(AlertKind.WaveStarted), kinds(second));
        assertEquals(1, second.get(0).wave());
        List<AlertEvent> third = AlertEvents.between(started, failed, "c2", T0.plusSeconds(90));
        assertEquals(List.of(AlertKind.WaveFailed, AlertKind.RolledBack), kinds(third));
        assertEquals("eu-1", third.get(0).cluster());
        assertEquals("failed on eu-1", third.get(0).detail());
        assertEquals("back to r1: eu-1 was Degraded past its deadline", third.get(1).detail());
        assertEquals(AlertKind.RolledBack.severity(), third.get(1).severity());
        // The same record again is no news: one event per change, not per pass.
        assertEquals(List.of(), AlertEvents.between(failed, failed, "c2", T0.plusSeconds(120)));

        // A step that failed without a rollback (onFailure: Pause) is a wave failure by its own state.
        EngineState paused = app(rollout(RolloutState.Result.Failed, "eu-1 TimedOut",
                new ClusterStep("eu-1", State.TimedOut, 1, T0, null, T0.plusSeconds(90), null), new ClusterStep("eu-2", State.Pending, 2, null, null, null, null)));
        List<AlertEvent> stopped = AlertEvents.between(started, paused, "c2", T0.plusSeconds(90));
        assertEquals(List.of(AlertKind.WaveFailed, AlertKind.RolloutFailed), kinds(stopped));
        assertEquals("TimedOut", stopped.get(0).reason());
    }

    @Test
    void rolloutEventsNameTheirClustersAndTheRolloutsCommitAsData() {
        EngineState started = app(rollout(RolloutState.Result.Progressing, "",
                new ClusterStep("eu-1", State.Progressing, 1, T0, null, null, null), new ClusterStep("eu-2", State.Pending, 2, null, null, null, null),
                new ClusterStep("us-1", State.Pending, 2, null, null, null, null)));
        EngineState second = app(rollout(RolloutState.Result.Progressing, "",
                new ClusterStep("eu-1", State.Succeeded, 1, T0, T0, T0.plusSeconds(60), null), new ClusterStep("eu-2", State.Progressing, 2, T0.plusSeconds(60), null, null, null),
                new ClusterStep("us-1", State.Progressing, 2, T0.plusSeconds(60), null, null, null)));
        // The pass read a later config commit (c3, an unrelated change): the rollout's commit is still c2.
        List<AlertEvent> next = AlertEvents.between(started, second, "c3", T0.plusSeconds(60));
        assertEquals(List.of(AlertKind.WaveCompleted, AlertKind.WaveStarted), kinds(next), "wave 1 done, then wave 2 started");
        AlertEvent waveTwo = next.stream().filter(e -> e.kind() == AlertKind.WaveStarted).findFirst().orElseThrow();
        assertEquals(List.of("eu-2", "us-1"), waveTwo.clusters());
        assertEquals("c2", waveTwo.rolloutSource());
        assertEquals("c3", waveTwo.source());
        assertEquals(List.of("eu-1"), next.get(0).clusters());

        RolloutState rb = rollout(RolloutState.Result.RolledBack, "us-1 was Degraded past its deadline",
                new ClusterStep("eu-1", State.RolledBack, 1, T0, T0, T0.plusSeconds(60), null), new ClusterStep("eu-2", State.RolledBack, 2, T0.plusSeconds(60), null, null, null),
                new ClusterStep("us-1", State.RolledBack, 2, T0.plusSeconds(60), null, T0.plusSeconds(150), null));
        EngineState rolledBack = app(new RolloutState(rb.revision(), rb.source(), rb.previousRevision(), rb.previousSource(), rb.policy(), rb.gate(), rb.result(),
                rb.message(), rb.waves(), rb.startedAt(), T0.plusSeconds(150), rb.clusters(), List.of("us-1")));
        List<AlertEvent> last = AlertEvents.between(second, rolledBack, "c3", T0.plusSeconds(150));
        assertEquals(List.of(AlertKind.WaveFailed, AlertKind.RolledBack), kinds(last));
        assertEquals(List.of("us-1"), last.get(0).clusters(), "the failed cluster");
        assertEquals(List.of("eu-1", "eu-2"), last.get(1).clusters(), "the clusters set back, not the one that failed");
        assertEquals("c2", last.get(1).rolloutSource());

        EngineState down = EngineState.of("c", Map.of(), Map.of("eu-1", cluster(Reachability.Unreachable, "refused")));
        AlertEvent other = AlertEvents.between(EngineState.EMPTY, down, "c", T0).get(0);
        assertEquals(List.of(), other.clusters());
        assertEquals("", other.rolloutSource());
    }

    @Test
    void idsAreStableForTheSameChangeAndDifferForAnother() {
        EngineState down = EngineState.of("c", Map.of(), Map.of("eu-1", cluster(Reachability.Unreachable, "connection refused")));
        EngineState up = EngineState.of("c", Map.of(), Map.of("eu-1", cluster(Reachability.Reachable, "")));
        List<AlertEvent> a = AlertEvents.between(up, down, "c", T0);
        assertEquals(a, AlertEvents.between(up, down, "c", T0));
        assertEquals(List.of(AlertKind.ClusterUnreachable), kinds(a));
        assertEquals("connection refused", a.get(0).detail());
        List<AlertEvent> back = AlertEvents.between(down, up, "c", T0.plusSeconds(30));
        assertEquals(List.of(AlertKind.ClusterReachable), kinds(back));
        assertNotEquals(a.get(0).id(), AlertEvents.between(up, down, "c", T0.plusSeconds(60)).get(0).id());
    }

    @Test
    void anInvalidApplicationIsToldWithWhereItsFirstErrorIs() {
        Condition stalled = new Condition("Stalled", Condition.Status.True, "Invalid", "apps/web/app.yaml:4:3: bad", T0);
        AppStatus invalid = new AppStatus("web", "apps/web/app.yaml", "r2", "c2", true, List.of(stalled), List.of(), List.of(),
                List.of("apps/web/app.yaml:4:3: unknown field 'replica'"));
        EngineState after = EngineState.of("c2", Map.of("web", invalid), Map.of());
        List<AlertEvent> events = AlertEvents.between(EngineState.EMPTY, after, "c2", T0);
        assertEquals(List.of(AlertKind.ApplicationInvalid), kinds(events));
        assertEquals("apps/web/app.yaml:4:3: unknown field 'replica'", events.get(0).detail());
        assertEquals(List.of(), AlertEvents.between(after, after, "c2", T0.plusSeconds(5)));
    }

    @Test
    void aRemediationBlockedByItsQuorumIsToldOnceWithItsReason() {
        ClusterStatus free = cluster(Reachability.Reachable, "");
        ClusterStatus blocked = free.withConditions(List.of(new Condition("RemediationBlocked", Condition.Status.True, "Quorum",
                "control-plane: acting would leave 1 of 3 members healthy; quorum needs 2", T0)));
        List<AlertEvent> events = AlertEvents.between(EngineState.of("c2", Map.of(), Map.of("eu-1", free)),
                EngineState.of("c2", Map.of(), Map.of("eu-1", blocked)), "c2", T0);
        assertEquals(List.of(AlertKind.RemediationBlocked), kinds(events));
        assertEquals("Quorum", events.get(0).reason());
        assertEquals("eu-1", events.get(0).cluster());
        EngineState still = EngineState.of("c2", Map.of(), Map.of("eu-1", blocked));
        assertEquals(List.of(), AlertEvents.between(still, still, "c2", T0.plusSeconds(30)), "the same block on the next pass is no news");
    }

    static ClusterStatus cluster(Reachability r, String message) {
        return new ClusterStatus("eu-1", "clusters/eu-1.yaml", r, message, "ServerSide", 1, 1, List.of());
    }
}
