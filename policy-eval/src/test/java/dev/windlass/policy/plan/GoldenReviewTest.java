package dev.windlass.policy.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.review.ReviewInput;
import dev.windlass.policy.review.ReviewMarkdown;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden review comments: each folder under {@code reviews/} holds the main branch the clusters are synced to
 * ({@code main/}), a branch ({@code branch/}) and the comment a reviewer reads ({@code expected.md}).
 * Regenerate with {@code -Dgolden.update=true} and review the diff.
 */
class GoldenReviewTest {
    static final Path ROOT = Path.of("src/test/resources/reviews");
    static final String BASE = "1111111111111111111111111111111111111111";
    static final String HEAD = "2222222222222222222222222222222222222222";
    static final String MERGE = "3333333333333333333333333333333333333333";

    static Stream<String> cases() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void commentMatchesGolden(String name) throws IOException {
        Path dir = ROOT.resolve(name);
        DesiredState main = RepoParser.parse(RepoFiles.folder(dir.resolve("main")));
        DesiredState branch = RepoParser.parse(RepoFiles.folder(dir.resolve("branch")));
        FakeFleet fleet = new FakeFleet(branch.clusters().keySet());
        EngineState state = GoldenPlanTest.syncTo(main, fleet);
        ObservedState observed = fleet.observe();
        ReviewInput in = new ReviewInput("feature/" + name, 12, "main", BASE, HEAD, MERGE, List.of(), main,
                Planner.plan(main, observed, state, GoldenPlanTest.NOW), branch, Planner.plan(branch, observed, state, GoldenPlanTest.NOW),
                observed, List.of());
        String comment = ReviewMarkdown.comment(in);

        assertEquals(comment, ReviewMarkdown.comment(in), "deterministic");
        assertTrue(comment.startsWith(ReviewMarkdown.marker("feature/" + name) + "\n"));
        for (String secret : List.of("hunter2-old", "correct-horse-new", "aHVudGVyMi1vbGQ=", "Y29ycmVjdC1ob3JzZS1uZXc=")) {
            assertFalse(comment.contains(secret), "a Secret value leaked into the review: " + secret);
        }
        GoldenPlanTest.compare(dir.resolve("expected.md"), comment);
    }
}
