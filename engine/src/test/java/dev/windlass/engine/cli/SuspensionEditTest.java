package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.cli.SuspensionEdit.Target;
import dev.windlass.git.BranchChange;
import dev.windlass.policy.source.MapSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What one suspend or resume writes, computed from the files at the branch tip. */
class SuspensionEditTest {
    static final Author ALICE = new Author("Alice", "alice@example.com");
    static final String CLUSTER = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata:
              name: eu-1
            spec:
              connection:
                sandbox: {nodes: 1}
            """;
    static final String APP = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata:
              name: web
            spec:
              placement:
                clusterNames: [eu-1]
            """;

    static MapSnapshot repo(String... overrides) {
        Map<String, String> files = new TreeMap<>(Map.of("clusters/eu-1.yaml", CLUSTER, "apps/web/app.yaml", APP,
                "apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n"));
        for (int i = 0; i < overrides.length; i += 2) files.put(overrides[i], overrides[i + 1]);
        return MapSnapshot.ofStrings("1111111111111111111111111111111111111111", files);
    }

    static SuspensionEdit suspend(Target target, String name, String cluster) {
        return new SuspensionEdit(target, name, cluster, true, "disk full", ALICE, "main");
    }

    static SuspensionEdit resume(Target target, String name, String cluster) {
        return new SuspensionEdit(target, name, cluster, false, null, ALICE, "main");
    }

    static String written(BranchChange change, String path) { return new String(change.writes().get(path), StandardCharsets.UTF_8); }

    @Test
    void suspendingAnAppEverywhereSetsSpecSuspendAndTheReasonWithWhoGaveIt() {
        SuspensionEdit.Result r = suspend(Target.APP, "web", null).on(repo());
        assertNull(r.problem());
        assertEquals("windlass: suspend web: disk full (Alice)", r.change().message());
        assertEquals("Alice", r.change().authorName());
        assertEquals("alice@example.com", r.change().authorEmail());
        assertEquals(APP.replace("metadata:\n  name: web\n", "metadata:\n  name: web\n  annotations:\n    \"windlass.dev/suspend-reason\": \"disk full (Alice)\"\n")
                + "  suspend: true\n", written(r.change(), "apps/web/app.yaml"));
        String suspended = written(r.change(), "apps/web/app.yaml");
        SuspensionEdit.Result again = suspend(Target.APP, "web", null).on(repo("apps/web/app.yaml", suspended));
        assertTrue(again.change().isEmpty());
        assertEquals("web is already suspended; nothing to commit", again.nothingToDo());
        SuspensionEdit.Result resumed = resume(Target.APP, "web", null).on(repo("apps/web/app.yaml", suspended));
        assertEquals("windlass: resume web", resumed.change().message());
        assertEquals(APP, written(resumed.change(), "apps/web/app.yaml"));
        assertEquals("web is not suspended; nothing to commit", resume(Target.APP, "web", null).on(repo()).nothingToDo());
    }

    @Test
    void aClusterIsSuspendedInItsOwnFile() {
        SuspensionEdit.Result r = suspend(Target.CLUSTER, "eu-1", null).on(repo());
        assertEquals("windlass: suspend cluster eu-1: disk full (Alice)", r.change().message());
        assertEquals(Set.of("clusters/eu-1.yaml"), r.change().writes().keySet());
        assertTrue(written(r.change(), "clusters/eu-1.yaml").endsWith("    sandbox: {nodes: 1}\n  suspend: true\n"));
        SuspensionEdit.Result resumed = resume(Target.CLUSTER, "eu-1", null).on(repo("clusters/eu-1.yaml", written(r.change(), "clusters/eu-1.yaml")));
        assertEquals("windlass: resume cluster eu-1", resumed.change().message());
        assertEquals(CLUSTER, written(resumed.change(), "clusters/eu-1.yaml"));
    }

    @Test
    void anAppOnOneClusterIsAFreezeFileOfItsOwn() {
        SuspensionEdit.Result r = suspend(Target.APP, "web", "eu-1").on(repo());
        assertEquals("windlass: suspend web on eu-1: disk full (Alice)", r.change().message());
        assertEquals(Set.of("freezes/suspend-web-on-eu-1.yaml"), r.change().writes().keySet());
        assertTrue(written(r.change(), "freezes/suspend-web-on-eu-1.yaml").contains("  reason: \"disk full (Alice)\"\n"));
        MapSnapshot suspended = repo("freezes/suspend-web-on-eu-1.yaml", written(r.change(), "freezes/suspend-web-on-eu-1.yaml"));
        assertEquals("web on eu-1 is already suspended (freezes/suspend-web-on-eu-1.yaml); nothing to commit",
                suspend(Target.APP, "web", "eu-1").on(suspended).nothingToDo());
        SuspensionEdit.Result resumed = resume(Target.APP, "web", "eu-1").on(suspended);
        assertEquals("windlass: resume web on eu-1", resumed.change().message());
        assertEquals(Set.of("freezes/suspend-web-on-eu-1.yaml"), resumed.change().deletes());
        assertEquals("web on eu-1 is not suspended (there is no freezes/suspend-web-on-eu-1.yaml); nothing to commit",
                resume(Target.APP, "web", "eu-1").on(repo()).nothingToDo());
    }

    @Test
    void problemsSayWhatIsWrongAndWriteNothing() {
        assertEquals("no application 'webb' on branch main", suspend(Target.APP, "webb", null).on(repo()).problem());
        assertEquals("no cluster 'eu-9' on branch main", suspend(Target.CLUSTER, "eu-9", null).on(repo()).problem());
        assertEquals("no cluster 'eu-9' on branch main", suspend(Target.APP, "web", "eu-9").on(repo()).problem());
        assertEquals("no application 'webb' on branch main", resume(Target.APP, "webb", "eu-1").on(repo()).problem());
        SuspensionEdit.Result flow = suspend(Target.APP, "web", null).on(repo("apps/web/app.yaml",
                APP.replace("spec:\n  placement:\n    clusterNames: [eu-1]\n", "spec: {placement: {clusterNames: [eu-1]}}\n")));
        assertEquals("apps/web/app.yaml: spec of Application web is written in flow style ({...}); write it as a block to let Windlass edit it", flow.problem());
        assertTrue(flow.change().isEmpty());
        SuspensionEdit.Result flowMetadata = suspend(Target.APP, "web", null).on(repo("apps/web/app.yaml", APP.replace("metadata:\n  name: web\n", "metadata: {name: web}\n")));
        assertEquals("apps/web/app.yaml: metadata of Application web is written in flow style ({...}); write it as a block to let Windlass edit it",
                flowMetadata.problem());
        String broken = CLUSTER.replace("nodes: 1", "nodes: many");
        assertEquals("no cluster 'eu-1' on branch main (the branch has errors; `windlass validate` shows them)",
                suspend(Target.CLUSTER, "eu-1", null).on(repo("clusters/eu-1.yaml", broken)).problem());
    }
}
