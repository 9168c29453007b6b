package dev.windlass.policy.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.render.PlanDocument;
import dev.windlass.policy.render.PlanMarkdown;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

/**
 * Golden plans: each folder under {@code plans/} holds a repo, optionally the repo the clusters were
 * synced to before ({@code before/}) and hand edits or outages ({@code cluster.yaml}), and the plan
 * a reviewer would read ({@code expected.md}). Regenerate with {@code -Dgolden.update=true} and
 * review the diff.
 */
class GoldenPlanTest {
    static final Path ROOT = Path.of("src/test/resources/plans");
    static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    static Stream<String> cases() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void planMatchesGolden(String name) throws IOException {
        Path dir = ROOT.resolve(name);
        DesiredState desired = RepoParser.parse(RepoFiles.folder(dir.resolve("repo")));
        FakeFleet fleet = new FakeFleet(desired.clusters().keySet());
        EngineState state = EngineState.EMPTY;
        PlanMemo memo = new PlanMemo();
        if (Files.isDirectory(dir.resolve("before"))) state = syncTo(RepoParser.parse(RepoFiles.folder(dir.resolve("before"))), fleet, memo);
        if (Files.exists(dir.resolve("cluster.yaml"))) tweak(fleet, Files.readString(dir.resolve("cluster.yaml")));

        Plan plan = Planner.plan(desired, fleet.observe(), state, NOW);
        String markdown = PlanMarkdown.render(plan, "main");

        assertEquals(plan, Planner.plan(desired, fleet.observe(), state, NOW), "same inputs, same plan");
        // The memo has seen every pass of the sync; reusing what it kept must give the very same plan.
        assertEquals(plan, Planner.plan(desired, fleet.observe(), state, Revisions.NONE, NOW, memo), "the same plan with the sync's memo");
        assertEquals(plan, Planner.plan(desired, fleet.observe(), state, Revisions.NONE, NOW, memo), "the same plan from a memo of it");
        assertTrue(memo.lastWork().targetsPlanned() <= planAfresh(plan), "a second identical plan reuses every target it can: " + memo.lastWork());
        assertEquals(markdown, PlanMarkdown.render(Planner.plan(desired, fleet.observe(), state, NOW), "main"));
        assertTrue(PlanDocument.yaml(plan).contains("hash: " + plan.hash()));
        compare(dir.resolve("expected.md"), markdown);
    }

    /** Plans and applies until nothing is left to do, as the engine would over several passes. */
    static EngineState syncTo(DesiredState before, FakeFleet fleet) {
        return syncTo(before, fleet, new PlanMemo());
    }

    /** Targets a plan always plans afresh: those of failed-over apps carrying state to their new cluster. */
    static int planAfresh(Plan plan) {
        return plan.failovers().values().stream().mapToInt(f -> (int) f.inject().values().stream().filter(v -> !v.isEmpty()).count()).sum();
    }

    static EngineState syncTo(DesiredState before, FakeFleet fleet, PlanMemo memo) {
        EngineState state = EngineState.EMPTY;
        for (int pass = 0; pass < 12; pass++) {
            Plan p = Planner.plan(before, fleet.observe(), state, Revisions.NONE, NOW, memo);
            // The memo must never change a plan: each pass of the sync is checked against planning from nothing.
            assertEquals(Planner.plan(before, fleet.observe(), state, NOW), p, "pass " + pass + ": the same plan with the memo");
            ApplyResult r = fleet.apply(p);
            state = Transition.after(state, before, fleet.observe(), p, r, NOW).state();
            boolean rolling = state.apps().values().stream().anyMatch(a -> a.rollout() != null && a.rollout().active());
            if (!p.hasChanges() && p.held().isEmpty() && !rolling) return state;
        }
        throw new AssertionError("the before repo did not settle in 12 passes");
    }

    @SuppressWarnings("unchecked")
    static void tweak(FakeFleet fleet, String yaml) {
        Map<String, Object> t = new Yaml().load(yaml);
        ((Map<String, String>) t.getOrDefault("unreachable", Map.of())).forEach(fleet.unreachable::put);
        for (Map<String, Object> e : (List<Map<String, Object>>) t.getOrDefault("edits", List.of())) {
            String kind = (String) e.get("kind");
            String group = kind.equals("Deployment") || kind.equals("StatefulSet") ? "apps" : "";
            fleet.edit((String) e.get("cluster"), new ObjectRef(group, kind, (String) e.get("namespace"), (String) e.get("name")),
                    (List<String>) e.get("path"), e.get("value"));
        }
    }

    static void compare(Path expected, String actual) throws IOException {
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(expected, actual);
            return;
        }
        assertTrue(Files.exists(expected), expected + " is missing; run with -Dgolden.update=true and review it");
        assertEquals(Files.readString(expected), actual);
    }
}
