package dev.windlass.policy.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.state.EngineState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When a pass may be skipped: after a pass that left a synced, healthy fleet with nothing to do, until the horizon or the
 * next Freeze boundary; never while anything is to be done, held, or waiting on a cluster.
 */
class AtRestTest {
    static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");  // a Friday
    static final ObjectRef WEB_CONFIG = new ObjectRef("", "ConfigMap", "web", "web-config");

    FakeFleet fleet;
    EngineState state = EngineState.EMPTY;

    /** Passes over {@code desired} (plan, apply, record) until one has nothing to do; returns the plan after it. */
    Plan synced(DesiredState desired) {
        fleet = new FakeFleet(desired.clusters().keySet());
        Plan plan = Planner.plan(desired, fleet.observe(), state, NOW);
        for (int i = 0; i < 3 && plan.hasChanges(); i++) {
            ApplyResult applied = fleet.apply(plan);
            state = Transition.after(state, desired, fleet.observe(), plan, applied, NOW).state();
            plan = Planner.plan(desired, fleet.observe(), state, NOW);
        }
        assertEquals(List.of(), plan.actions(), "synced");
        // The pass that plans nothing records what it observed: the objects healthy.
        state = Transition.after(state, desired, fleet.observe(), plan, new ApplyResult(List.of()), NOW).state();
        return Planner.plan(desired, fleet.observe(), state, NOW);
    }

    Optional<Instant> until(DesiredState desired, Plan plan) {
        return AtRest.until(desired, fleet.observe(), state, Revisions.NONE, plan, NOW, new PlanMemo());
    }

    /** A fleet synced without a Freeze, then planned again with {@code freeze} added: until when it is at rest. */
    Optional<Instant> untilWith(String freeze) {
        synced(repo(""));
        DesiredState frozen = repo(freeze);
        Plan plan = Planner.plan(frozen, fleet.observe(), state, NOW);
        assertEquals(List.of(), plan.actions(), plan.toString());
        return until(frozen, plan);
    }

    @Test void aSyncedHealthyFleetIsAtRestForTheHorizon() {
        DesiredState desired = repo("");
        Plan plan = synced(desired);
        assertEquals(Optional.of(NOW.plus(AtRest.HORIZON)), until(desired, plan));
    }

    @Test void aPlanWithSomethingToDoIsNotAtRest() {
        DesiredState desired = repo("");
        synced(desired);
        fleet.edit("a", WEB_CONFIG, List.of("data", "MODE"), "edited by hand");
        Plan drifted = Planner.plan(desired, fleet.observe(), state, NOW);
        assertEquals(1, drifted.actions().size(), drifted.toString());
        assertEquals(Optional.empty(), until(desired, drifted));
    }

    @Test void aClusterThatDidNotAnswerIsNotAtRest() {
        DesiredState desired = repo("");
        Plan plan = synced(desired);
        fleet.unreachable.put("b", "connection refused");
        Plan unanswered = Planner.plan(desired, fleet.observe(), state, NOW);
        assertEquals(Optional.empty(), AtRest.until(desired, fleet.observe(), state, Revisions.NONE, unanswered, NOW, new PlanMemo()), unanswered.toString());
        assertEquals(Optional.empty(), AtRest.until(desired, fleet.observe(), state, Revisions.NONE, plan, NOW, new PlanMemo()), "whatever the plan says");
    }

    @Test void aFreezeWindowThatOpensWithinTheHorizonEndsTheRestThen() {
        // Opens at 10:00:20 every day, for an hour: the rest ends when it opens.
        assertEquals(Optional.of(NOW.plusSeconds(20)), untilWith(freeze("20 0 10 * * ?", "1h")));
    }

    @Test void aFreezeWindowInForceEndsTheRestWhenItCloses() {
        // Opened at 09:00:30 for an hour: it closes at 10:00:30.
        assertEquals(Optional.of(NOW.plusSeconds(30)), untilWith(freeze("30 0 9 * * ?", "1h")));
    }

    @Test void aFreezeWindowFarAwayLeavesTheHorizon() {
        assertEquals(Optional.of(NOW.plus(Duration.ofMinutes(1))), untilWith(freeze("0 0 18 ? * FRI", "60h")));
    }

    private static String freeze(String schedule, String duration) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Freeze\nmetadata: {name: nightly}\nspec:\n  schedule: \"" + schedule + "\"\n"
                + "  duration: " + duration + "\n";
    }

    /** Two apps (web, db) of a ConfigMap each, on clusters a and b; and one Freeze when {@code freeze} is not empty. */
    private static DesiredState repo(String freeze) {
        List<String> files = new ArrayList<>(List.of("clusters/a.yaml", cluster("a"), "clusters/b.yaml", cluster("b")));
        for (String app : List.of("web", "db")) {
            files.add("apps/" + app + "/app.yaml");
            files.add("apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + app + "}\n"
                    + "spec:\n  namespace: " + app + "\n  placement: {clusterNames: [a, b]}\n");
            files.add("apps/" + app + "/manifests/config.yaml");
            files.add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + app + "-config}\ndata: {MODE: v1}\n");
        }
        if (!freeze.isEmpty()) {
            files.add("policies/freeze.yaml");
            files.add(freeze);
        }
        DesiredState desired = RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
        assertEquals(List.of(), desired.diagnostics().stream().filter(d -> d.isError()).toList());
        return desired;
    }

    private static String cluster(String name) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: " + name + "}\n"
                + "spec:\n  connection: {sandbox: {nodes: 1}}\n";
    }
}
