package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.cli.Main;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.RolloutState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pausing and resuming a rollout from the command line: a commit to the config repo, which the engine then follows. */
class RolloutPauseE2E {
    @TempDir Path dir;

    int cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        assertEquals(0, code, out + "\n" + err);
        return code;
    }

    @Test
    void pauseHoldsTheNextWaveAndResumeContinuesIt() throws Exception {
        try (TestFleet fleet = new RolloutE2E().startIn(dir, "Pause")) {
            String original = ReconcileLoopE2E.read(Path.of("..", "examples-repo", "apps/web/app.yaml"));
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            fleet.pass();
            String workdir = dir.resolve("cli").toString();
            cli("rollout", "pause", "web", "--reason", "canary latency", "--author", "Alice <alice@example.com>",
                    "--repo", fleet.origin.toString(), "--workdir", workdir);
            try (Git git = Git.open(fleet.origin.toFile())) {
                RevCommit head = git.log().add(git.getRepository().resolve("refs/heads/main")).setMaxCount(1).call().iterator().next();
                assertEquals("windlass: pause rollout of web: canary latency (Alice)", head.getShortMessage());
                assertEquals("Alice", head.getAuthorIdent().getName());
            }
            for (int i = 0; i < 10; i++) RolloutContract.step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            RolloutState paused = RolloutContract.web(fleet).rollout();
            assertEquals(RolloutState.Result.Paused, paused.result(), paused.toString());
            assertEquals(ClusterStep.State.Succeeded, paused.step("eu-1").state(), "the step under way finishes");
            assertEquals(ClusterStep.State.Pending, paused.step("eu-2").state(), "no new step starts");
            assertEquals("1.4.2", RolloutContract.image(fleet, "eu-2"));
            PassReport held = fleet.pass();
            assertTrue(held.plan().held().stream().anyMatch(h -> h.reason().text().equals("rollout paused: canary latency (Alice)")), held.plan().held().toString());
            assertEquals(paused.revision(), RolloutContract.web(fleet).rollout().revision(), "pausing does not change the revision");

            cli("rollout", "resume", "web", "--author", "Bob <bob@example.com>", "--repo", fleet.origin.toString(), "--workdir", workdir);
            try (Git git = Git.open(fleet.origin.toFile())) {
                var id = git.getRepository().resolve("refs/heads/main:apps/web/app.yaml");
                assertEquals(original, new String(git.getRepository().open(id).getBytes()), "the file is back as it was written");
            }
            for (int i = 0; i < 40 && RolloutContract.web(fleet).rollout().active(); i++) RolloutContract.step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            assertEquals(RolloutState.Result.Succeeded, RolloutContract.web(fleet).rollout().result());
            assertEquals("1.5.0", RolloutContract.image(fleet, "us-1"));
        }
    }
}
