package dev.windlass.policy.revert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.parse.RevertPullRequestParseTest;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.RolloutState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a failed rollout is offered as a revert pull request, and when not. */
class RevertProposalsTest {
    static final Instant T = Instant.parse("2031-05-04T10:00:00Z");

    static DesiredState desired(String revert) {
        return RevertPullRequestParseTest.parseSelecting("frontend", revert);
    }

    static EngineState state(String revision, RolloutState.Result result, String previous) {
        RolloutState rollout = new RolloutState(revision, "c0ffee", previous, previous.isEmpty() ? "" : "900d", "waves", "healthy", result,
                "eu-2 did not become healthy within 2m", 2, T, T.plusSeconds(300), List.of(), List.of("eu-2"));
        AppStatus web = new AppStatus("web", "apps/web/app.yaml", previous, "900d", true, List.of(), List.of(), List.of(), List.of())
                .withRolloutMemory(rollout, List.of(revision), new AppStatus.GoodRevision(previous, "900d"), List.of());
        return EngineState.of("c0ffee", Map.of("web", web), Map.of());
    }

    static String webRevision(DesiredState d) { return d.apps().get("web").revision(); }

    @Test
    void aRolledBackRevisionStillAtTheTipIsOfferedOnce() {
        DesiredState d = desired("  revertPullRequest: {providerRef: {name: github}}");
        String bad = webRevision(d);
        List<RevertProposals.Due> due = RevertProposals.due(state(bad, RolloutState.Result.RolledBack, "1a2b3c4d5e6f"), d, List.of());
        assertEquals(1, due.size());
        RevertProposals.Due one = due.get(0);
        assertEquals(List.of("web", "apps/web/manifests", bad, "1a2b3c4d5e6f", "900d", List.of("eu-2"), "github", "windlass/revert/web-" + bad.substring(0, 7)),
                List.of(one.app(), one.sourcePath(), one.revision(), one.goodRevision(), one.goodSource(), one.failedClusters(), one.provider().name(), one.branch()));

        RevertRecord opened = new RevertRecord("web", bad, "1a2b3c4d5e6f", one.branch(), RevertRecord.State.Opened, 1, "https://x/pull/1", "", T);
        assertEquals(List.of(), RevertProposals.due(state(bad, RolloutState.Result.RolledBack, "1a2b3c4d5e6f"), d, List.of(opened)), "recorded: never twice");
    }

    @Test
    void aRolloutPausedOnFailureIsOfferedToo() {
        DesiredState d = desired("  revertPullRequest: {providerRef: {name: github}}");
        assertEquals(1, RevertProposals.due(state(webRevision(d), RolloutState.Result.Failed, "1a2b3c4d5e6f"), d, List.of()).size());
    }

    @Test
    void nothingWithoutTheSwitchOrAFailureOrAGoodRevision() {
        DesiredState off = desired("");
        assertEquals(List.of(), RevertProposals.due(state(webRevision(off), RolloutState.Result.RolledBack, "1a2b3c4d5e6f"), off, List.of()));
        DesiredState on = desired("  revertPullRequest: {providerRef: {name: github}}");
        for (RolloutState.Result r : List.of(RolloutState.Result.Progressing, RolloutState.Result.Paused, RolloutState.Result.Succeeded,
                RolloutState.Result.Superseded)) {
            assertEquals(List.of(), RevertProposals.due(state(webRevision(on), r, "1a2b3c4d5e6f"), on, List.of()), r.name());
        }
        assertEquals(List.of(), RevertProposals.due(state(webRevision(on), RolloutState.Result.RolledBack, ""), on, List.of()), "no good revision to go back to");
    }

    @Test
    void nothingOnceTheTipHoldsAnotherRevision() {
        DesiredState d = desired("  revertPullRequest: {providerRef: {name: github}}");
        assertEquals(List.of(), RevertProposals.due(state("0123456789ab", RolloutState.Result.RolledBack, "1a2b3c4d5e6f"), d, List.of()),
                "a fix (or the revert) was pushed: the tip no longer holds the failed revision");
    }

    @Test
    void nothingThroughAProviderTheEngineLeftOut() {
        DesiredState d = desired("  revertPullRequest: {providerRef: {name: github}}");
        DesiredState refused = d.withAlerting(new dev.windlass.policy.alert.Alerting(new java.util.TreeMap<>(), List.of()), d.diagnostics());
        assertEquals(List.of(), RevertProposals.due(state(webRevision(d), RolloutState.Result.RolledBack, "1a2b3c4d5e6f"), refused, List.of()));
    }
}
