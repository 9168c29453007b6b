package dev.windlass.git;

import static dev.windlass.git.StatusWriterTest.change;
import static dev.windlass.git.StatusWriterTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigWriterTest {

    @TempDir Path tmp;
    Origin origin;
    Mirror mirror;

    @BeforeEach void setUp() throws Exception {
        origin = Origin.create(tmp);
        mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.anonymous(origin.url()));
    }

    @AfterEach void tearDown() {
        mirror.close();
        origin.close();
    }

    @Test void editSeesTheTipFilesAndCommitsOnTopOfTheBranch() throws Exception {
        String before = origin.commit("main", Map.of("clusters/prod.yaml", "replicas: 1\n"), "config");

        CommitOutcome outcome = new ConfigWriter(mirror, "main").write(tip -> change("scale")
                .write("clusters/prod.yaml", text(tip.read("clusters/prod.yaml")).replace("1", "3")));

        String after = assertInstanceOf(CommitOutcome.Committed.class, outcome).commit();
        assertEquals(Map.of("clusters/prod.yaml", "replicas: 3\n"), origin.files("main"));
        assertEquals(before, origin.commitAt(after).getParent(0).name());
    }

    @Test void aLostRaceRecomputesTheEditOnTheNewTip() throws Exception {
        origin.commit("main", Map.of("clusters/prod.yaml", "prod\n"), "config");
        List<Integer> filesSeen = new ArrayList<>();

        CommitOutcome outcome = new ConfigWriter(mirror, "main").write(tip -> {
            filesSeen.add(tip.files().size());
            if (filesSeen.size() == 1) {
                // Someone else lands a commit between our fetch and our push.
                uncheckedCommit("clusters/staging.yaml", "staging\n");
            }
            return change("add dev").write("clusters/dev.yaml", "dev (after " + tip.files().size() + " files)\n");
        });

        CommitOutcome.Committed committed = assertInstanceOf(CommitOutcome.Committed.class, outcome);
        assertEquals(2, committed.attempts());
        assertEquals(List.of(1, 2), filesSeen);
        assertEquals(Map.of("clusters/prod.yaml", "prod\n", "clusters/staging.yaml", "staging\n",
                "clusters/dev.yaml", "dev (after 2 files)\n"), origin.files("main"));
    }

    @Test void anEmptyEditLeavesTheBranchAlone() throws Exception {
        String tip = origin.commit("main", Map.of("a.yaml", "a\n"), "config");

        CommitOutcome outcome = new ConfigWriter(mirror, "main").write(files -> change("noop"));

        assertEquals(new CommitOutcome.Unchanged(Optional.of(tip)), outcome);
        assertEquals(Optional.of(tip), origin.tip("main"));
    }

    @Test void aMissingBranchStartsFromNoFiles() throws Exception {
        CommitOutcome outcome = new ConfigWriter(mirror, "main").write(tip -> {
            assertNull(tip.commit());
            assertEquals(0, tip.files().size());
            return change("init").write("windlass.yaml", "version: 1\n");
        });

        assertInstanceOf(CommitOutcome.Committed.class, outcome);
        assertEquals(Map.of("windlass.yaml", "version: 1\n"), origin.files("main"));
    }

    private void uncheckedCommit(String path, String content) {
        try {
            origin.commit("main", Map.of(path, content), "concurrent edit");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
