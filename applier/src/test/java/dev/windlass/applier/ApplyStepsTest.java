package dev.windlass.applier;

import static dev.windlass.applier.support.Fixtures.configMap;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Hook;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.plan.Operation;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a cluster's share of a stage is cut into steps and lanes, hooks included. */
class ApplyStepsTest {

    private static Action object(String app, String name, int wave) {
        Manifest m = configMap(app, name, "x");
        m = new Manifest(m.ref(), m.apiVersion(), m.body(), m.location(), m.hash(), wave, m.applyMode(), m.gcPolicy(), false);
        return new Action(app, "eu-1", m.ref(), m.apiVersion(), Operation.Create, new ActionReason.NotOnCluster(), List.of(), m, ApplyStrategy.ClientSide, false);
    }

    private static Action hook(String app, String name, Hook.Phase phase, int weight) {
        Manifest m = configMap(app, name, "x");
        m = new Manifest(m.ref(), m.apiVersion(), m.body(), m.location(), m.hash(), 0, m.applyMode(), m.gcPolicy(), false,
                new Hook(Set.of(phase), EnumSet.allOf(Hook.Occasion.class), weight, Set.of(Hook.DeletePolicy.BeforeHookCreation), false, Hook.Source.ArgoCD));
        return new Action(app, "eu-1", m.ref(), m.apiVersion(), Operation.Create, new ActionReason.HookRun(phase, weight, false, Hook.Source.ArgoCD),
                List.of(), m, ApplyStrategy.ClientSide, false);
    }

    private static List<String> describe(List<Action> actions) {
        return ApplySteps.of(actions).stream().map(step -> step.stream()
                .map(lane -> lane.app() + ":" + String.join(",", lane.positions().stream().map(i -> actions.get(i).object().name()).toList()))
                .toList().toString()).toList();
    }

    @Test void withoutHooksEachPhaseAndWaveIsAStep() {
        List<Action> plan = List.of(object("a", "a1", 0), object("b", "b1", 0), object("a", "a2", 1), object("b", "b2", 1));
        assertEquals(List.of("[a:a1, b:b1]", "[a:a2, b:b2]"), describe(plan));
    }

    @Test void anApplicationsHooksRunInItsOwnLaneBesideTheOtherApplicationsObjects() {
        // In the plan's order: PreSync hooks, objects by wave, PostSync, SyncFail.
        List<Action> plan = List.of(
                hook("a", "a-check", Hook.Phase.PreSync, -5),
                hook("a", "a-migrate", Hook.Phase.PreSync, 1),
                object("a", "a1", 0), object("b", "b1", 0), object("c", "c1", 0),
                object("a", "a2", 1), object("c", "c2", 1),
                hook("a", "a-smoke", Hook.Phase.PostSync, 0),
                hook("a", "a-page", Hook.Phase.SyncFail, 0));
        assertEquals(List.of(
                "[a:a-check,a-migrate,a1, b:b1, c:c1]",
                "[a:a2,a-smoke,a-page, c:c2]"), describe(plan),
                "b and c do not wait for a's PreSync Jobs; a's PostSync runs after a's last wave, beside c's");
    }

    @Test void aPostSyncHookComesAfterTheApplicationsSyncHooksOfALaterWave() {
        List<Action> plan = List.of(object("a", "a1", 0), hook("a", "a-sync", Hook.Phase.Sync, 3), hook("a", "a-smoke", Hook.Phase.PostSync, 0));
        assertEquals(List.of("[a:a1]", "[a:a-sync,a-smoke]"), describe(plan));
    }
}
