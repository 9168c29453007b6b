package dev.windlass.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A branch restoring one folder to what an older commit had, pushed once, touching nothing else. */
class RestoreBranchTest {
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

    @Test void theFolderIsAsTheGoodCommitHadItAndTheRestAsTheBase() throws Exception {
        String good = origin.commit("main", Map.of("apps/web/manifests/deployment.yaml", "image: web:1.4.2\n",
                "apps/web/manifests/service.yaml", "port: 80\n", "apps/api/api.yaml", "api: 1\n"), "good");
        Map<String, String> bad = new HashMap<>();
        bad.put("apps/web/manifests/deployment.yaml", "image: web:1.5.0\n");
        bad.put("apps/web/manifests/service.yaml", null);
        bad.put("apps/web/manifests/extra.yaml", "extra: true\n");
        bad.put("apps/api/api.yaml", "api: 2\n");
        String base = origin.commit("main", bad, "web 1.5.0, api 2");
        mirror.fetch();

        RestoreBranch.Outcome outcome = RestoreBranch.push(mirror, "windlass/revert/web-58bd4fc", base, good, "apps/web/manifests",
                "Revert web", "Windlass", "windlass@localhost");

        String pushed = assertInstanceOf(RestoreBranch.Outcome.Pushed.class, outcome).commit();
        assertEquals(Map.of("apps/web/manifests/deployment.yaml", "image: web:1.4.2\n", "apps/web/manifests/service.yaml", "port: 80\n",
                "apps/api/api.yaml", "api: 2\n"), origin.files("windlass/revert/web-58bd4fc"));
        assertEquals(base, origin.commitAt(pushed).getParent(0).name());
        assertEquals("Revert web", origin.commitAt(pushed).getFullMessage());

        // Asked again (a restart before the pull request was recorded): the branch is used as it is, not pushed again.
        RestoreBranch.Outcome again = RestoreBranch.push(mirror, "windlass/revert/web-58bd4fc", base, good, "apps/web/manifests",
                "Revert web, again", "Windlass", "windlass@localhost");
        assertEquals(new RestoreBranch.Outcome.Existed(pushed), again);
    }

    @Test void aFolderAlreadyAsTheGoodCommitHadItPushesNothing() throws Exception {
        String good = origin.commit("main", Map.of("apps/web/manifests/deployment.yaml", "image: web:1.4.2\n", "apps/web/app.yaml", "a\n"), "good");
        String base = origin.commit("main", Map.of("apps/web/app.yaml", "b\n"), "only the app's own file");
        mirror.fetch();

        assertEquals(new RestoreBranch.Outcome.Unchanged(), RestoreBranch.push(mirror, "windlass/revert/web-1", base, good, "apps/web/manifests",
                "Revert web", "Windlass", "windlass@localhost"));
        assertEquals(java.util.Optional.empty(), origin.tip("windlass/revert/web-1"));
    }
}
