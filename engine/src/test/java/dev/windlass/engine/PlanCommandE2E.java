package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.windlass.engine.cli.Main;
import dev.windlass.git.BranchChange;
import dev.windlass.git.ConfigWriter;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code windlass plan} on a real origin: deterministic text, and exit codes 0 (no change), 1 (changes), 2 (error). */
class PlanCommandE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");

    @TempDir Path dir;

    record Run(int code, String out, String err) {}

    Run plan(Path origin, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = new String[4 + 2 + more.length];
        args[0] = "plan";
        args[1] = "--repo";
        args[2] = origin.toString();
        args[3] = "--workdir";
        args[4] = dir.resolve("cli-mirror").toString();
        args[5] = "--ref";
        System.arraycopy(more, 0, args, 6, more.length);
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void planOfABranchShowsExactlyItsChangesWithFluxDiffExitCodes() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));

            Run initial = plan(fleet.origin, "main");
            assertEquals(1, initial.code(), initial.err());
            assertTrue(initial.out().startsWith("# Windlass plan for main"), initial.out());
            assertTrue(initial.out().contains("| + Create | StatefulSet cache/redis | cache | not on the cluster |"), initial.out());
            assertEquals(initial.out(), plan(fleet.origin, "main").out(), "the same plan twice, byte for byte");

            fleet.settle();
            Run synced = plan(fleet.origin, "main");
            assertEquals(0, synced.code(), synced.out());
            assertTrue(synced.out().contains("**0 to create, 0 to change, 0 to delete on 0 clusters**"), synced.out());

            try (Mirror dev = Mirror.open(dir.resolve("branch-dev"), GitRemote.anonymous(fleet.origin.toString()))) {
                dev.fetch();
                String deployment = ReconcileLoopE2E.read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:2.0.0");
                // The branch holds the whole examples repo, with web's image changed.
                new ConfigWriter(dev, "feature").write(s -> TestFleet.folder(EXAMPLES, "").apply(BranchChange.of("web 2.0.0", "Dev", "dev@example.com"))
                        .write("apps/web/manifests/deployment.yaml", deployment));
            }
            Run feature = plan(fleet.origin, "feature", "--output", "json");
            assertEquals(1, feature.code(), feature.err());
            JsonNode json = new ObjectMapper().readTree(feature.out());
            assertEquals("0 to create, 3 to change, 0 to delete on 3 clusters", json.get("summary").asText());
            for (JsonNode a : json.get("stages").get(0).get("actions")) {
                assertEquals("Update", a.get("operation").asText());
                assertEquals("web", a.get("name").asText());
                assertEquals("[\"spec.template.spec.containers[0].image\"]", a.get("fields").toString());
            }

            Run missing = plan(fleet.origin, "no-such-branch");
            assertEquals(2, missing.code());
            assertTrue(missing.err().contains("no branch or commit 'no-such-branch'"), missing.err());
        }
    }
}
