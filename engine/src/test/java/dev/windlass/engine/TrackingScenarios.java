package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * What resource tracking promises, told through Git pushes and checked on the cluster: gc policies,
 * deleting an application, apply-once, one owner per object, and a record that survives a restart.
 * Only kinds that are Healthy without controllers (ConfigMaps) are used, so the scenarios run the
 * same on the sandbox and on a bare API server.
 */
final class TrackingScenarios {
    static final String NS = "tracked";

    private final TestFleet fleet;
    private final Backend backend;
    private final Path dir;

    TrackingScenarios(TestFleet fleet, Path dir) {
        this.fleet = fleet;
        this.backend = fleet.backend;
        this.dir = dir;
    }

    static String cm(String name, String annotations, String value) {
        return """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: %s
                  annotations: {%s}
                data: {value: "%s"}
                """.formatted(name, annotations, value);
    }

    String cluster() {
        return fleet.clusterYaml("c1", "", 1, 0, "");
    }

    static String app(String name) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  namespace: "
                + NS + "\n  placement: {clusterNames: [c1]}\n";
    }

    ConfigMap live(String name) {
        try (KubernetesClient k = backend.client("c1")) {
            return k.configMaps().inNamespace(NS).withName(name).get();
        }
    }

    void gcPoliciesAndDeletingTheApplication() throws Exception {
        fleet.push("tracked app", c -> c.write("clusters/c1.yaml", cluster()).write("apps/tracked/app.yaml", app("tracked"))
                .write("apps/tracked/manifests/main.yaml", cm("main", "", "1"))
                .write("apps/tracked/manifests/extra.yaml", String.join("---\n",
                        cm("plain", "", "1"), cm("until-delete", "windlass.dev/gc: OnAppDelete", "1"), cm("never", "windlass.dev/gc: Never", "1"))));
        fleet.settle();
        for (String n : new String[] {"main", "plain", "until-delete", "never"}) assertNotNull(live(n), n + " applied");

        fleet.push("drop the extras", c -> c.delete("apps/tracked/manifests/extra.yaml"));
        fleet.settle();
        assertNull(live("plain"), "OnAppUpdate: pruned when it leaves Git");
        assertNotNull(live("until-delete"), "OnAppDelete: kept while the application exists");
        ConfigMap never = live("never");
        assertNotNull(never, "Never: kept");
        assertFalse(never.getMetadata().getLabels() != null && never.getMetadata().getLabels().containsKey("app.kubernetes.io/managed-by"),
                "Never: orphaned, no longer marked as managed: " + never.getMetadata());
        String status = fleet.statusFile("status/apps/tracked.yaml");
        assertTrue(status.contains("name: until-delete"), "still recorded: " + status);
        assertFalse(status.contains("name: never"), "orphans leave the record: " + status);

        fleet.push("delete the app", c -> c.delete("apps/tracked"));
        fleet.settle();
        assertNull(live("main"), "deleting the application deletes what it owns");
        assertNull(live("until-delete"), "OnAppDelete: deleted with the application");
        assertNotNull(live("never"), "the orphan outlives the application");
        assertNull(fleet.statusFile("status/apps/tracked.yaml"), "the application leaves the status branch");
        assertTrue(fleet.statusLog().stream().anyMatch(c -> c.getFullMessage().contains("tracked deleted from Git and removed from every cluster")),
                "a status commit tells the application is gone");
    }

    void applyOnce() throws Exception {
        fleet.push("seed", c -> c.write("clusters/c1.yaml", cluster()).write("apps/seeded/app.yaml", app("seeded"))
                .write("apps/seeded/manifests/seed.yaml", cm("seed", "windlass.dev/apply: Once", "initial")));
        fleet.settle();
        assertEquals("initial", live("seed").getData().get("value"));
        try (KubernetesClient k = backend.client("c1")) {
            k.configMaps().inNamespace(NS).withName("seed").edit(cmap -> {
                cmap.getData().put("value", "edited by the team");
                return cmap;
            });
        }
        fleet.push("change the seed", c -> c.write("apps/seeded/manifests/seed.yaml", cm("seed", "windlass.dev/apply: Once", "changed in git")));
        backend.resetWrites("c1");
        fleet.settle();
        assertEquals("edited by the team", live("seed").getData().get("value"), "apply-once never updates or corrects");
        try (KubernetesClient k = backend.client("c1")) {
            k.configMaps().inNamespace(NS).withName("seed").delete();
        }
        fleet.settle();
        assertNull(live("seed"), "deleted by someone else: not re-created");
    }

    /**
     * A hand edit is put back when selfHeal is on, and only reported (with the field) when it is off. The
     * hand edit makes its author own the field, so with server-side apply correcting it takes
     * {@code syncPolicy.force} (without it the conflict is reported: see the applier's ServerSideApplyIT).
     */
    void driftCorrectedAndReported() throws Exception {
        fleet.push("two apps", c -> c.write("clusters/c1.yaml", cluster())
                .write("apps/healing/app.yaml", app("healing") + "  syncPolicy: {force: true}\n").write("apps/healing/manifests/a.yaml", cm("healing", "", "git"))
                .write("apps/watching/app.yaml", app("watching") + "  syncPolicy: {selfHeal: false}\n")
                .write("apps/watching/manifests/a.yaml", cm("watching", "", "git")));
        fleet.settle();
        try (KubernetesClient k = backend.client("c1")) {
            for (String n : new String[] {"healing", "watching"}) {
                k.configMaps().inNamespace(NS).withName(n).edit(cmap -> {
                    cmap.getData().put("value", "by hand");
                    return cmap;
                });
            }
        }
        fleet.pass();
        assertEquals("git", live("healing").getData().get("value"), "selfHeal: corrected");
        assertEquals("by hand", live("watching").getData().get("value"), "selfHeal off: left alone");
        String status = fleet.statusFile("status/apps/watching.yaml");
        assertTrue(status.contains("ConfigMap tracked/watching: data.value"), "the drifted field is reported: " + status);
    }

    /** API servers fold a Secret's stringData into data and never return it: that is not drift, a changed value is. */
    void secretStringDataIsNotDrift() throws Exception {
        String secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {password: %s}\n";
        fleet.push("secret", c -> c.write("clusters/c1.yaml", cluster()).write("apps/keys/app.yaml", app("keys"))
                .write("apps/keys/manifests/secret.yaml", secret.formatted("first")));
        fleet.settle();
        backend.resetWrites("c1");
        PassReport again = fleet.pass();
        assertFalse(again.plan().hasChanges(), "stringData as the server stores it is no change:\n" + again.plan());
        String hash = again.desired().apps().get("keys").manifests().stream().filter(m -> m.ref().kind().equals("Secret")).findFirst().orElseThrow().hash();
        assertFalse(fleet.statusFile("status/apps/keys.yaml").contains(hash), "no hash of the Secret's content on the status branch");
        try (KubernetesClient k = backend.client("c1")) {
            var inventory = k.configMaps().inNamespace("windlass-system").withName("windlass-inventory-keys").get();
            assertTrue(inventory != null && inventory.getData().values().stream().noneMatch(v -> v.contains(hash)),
                    "nor in the cluster's inventory, which people who may not read Secrets can read");
        }
        assertEquals(0, backend.writes("c1"), "nothing rewritten");
        fleet.push("rotate", c -> c.write("apps/keys/manifests/secret.yaml", secret.formatted("second")));
        PassReport rotated = fleet.pass();
        assertEquals(1, rotated.plan().actions().size(), rotated.plan().toString());
        assertTrue(rotated.plan().actions().get(0).fields().contains("stringData.password"), rotated.plan().toString());
        try (KubernetesClient k = backend.client("c1")) {
            var live = k.secrets().inNamespace(NS).withName("creds").get();
            String password = live.getData() != null && live.getData().containsKey("password")
                    ? new String(java.util.Base64.getDecoder().decode(live.getData().get("password")), java.nio.charset.StandardCharsets.UTF_8)
                    : live.getStringData().get("password");
            assertEquals("second", password);
        }
    }

    void oneOwnerPerObject() throws Exception {
        fleet.push("two owners", c -> c.write("clusters/c1.yaml", cluster())
                .write("apps/first/app.yaml", app("first")).write("apps/first/manifests/shared.yaml", cm("shared", "", "first"))
                .write("apps/second/app.yaml", app("second")).write("apps/second/manifests/shared.yaml", cm("shared", "", "second")));
        PassReport r = fleet.pass();
        assertNull(live("shared"), "never fought over: applied by neither");
        for (String app : new String[] {"first", "second"}) {
            String status = fleet.statusFile("status/apps/" + app + ".yaml");
            assertTrue(status.contains("ConfigMap tracked/shared is also declared by application"), status);
            assertTrue(status.contains("reason: Invalid"), status);
        }
        assertTrue(r.plan().diagnostics().size() >= 2);
    }

    /**
     * A healthy application holds an object; a newcomer declares it too. The holder keeps it: still valid, its drift on
     * that object still corrected; the newcomer is Invalid, at its file, naming the holder's declaration. With neither
     * holding an object, the application whose file came first keeps it.
     */
    void anOwnerStaysTheOwnerWhenANewcomerClaimsItsObject() throws Exception {
        // force: a hand edit makes its author own the field, so server-side apply takes it back only when forced.
        fleet.push("web", c -> c.write("clusters/c1.yaml", cluster()).write("apps/web/app.yaml", app("web") + "  syncPolicy: {force: true}\n")
                .write("apps/web/manifests/shared.yaml", cm("shared", "", "web")));
        fleet.settle();
        fleet.push("a newcomer claims web's object, and declares a new one web also gets", c -> c
                .write("apps/newcomer/app.yaml", app("newcomer")).write("apps/newcomer/manifests/shared.yaml", cm("shared", "", "newcomer")));
        try (KubernetesClient k = backend.client("c1")) {
            k.configMaps().inNamespace(NS).withName("shared").edit(cm -> {
                cm.getData().put("value", "changed by hand");
                return cm;
            });
        }
        PassReport r = fleet.passLater();
        assertTrue(r.desired().apps().get("web").valid(), "the holder stays valid: " + r.desired().diagnostics());
        assertFalse(r.desired().apps().get("newcomer").valid());
        assertEquals(List.of("apps/newcomer/manifests/shared.yaml:1:1: ConfigMap tracked/shared is already declared by application web at"
                + " apps/web/manifests/shared.yaml:1:1, which holds it on c1; an object has one owner: remove it from this application, or from"
                + " web first"), r.desired().diagnostics().stream().map(Object::toString).toList());
        assertEquals("web", live("shared").getData().get("value"), "the holder's drift is still corrected");

        // Neither holds "later": the one whose file came first keeps it, even within one second.
        fleet.push("first declares later", c -> c.write("apps/first/app.yaml", app("first"))
                .write("apps/first/manifests/later.yaml", cm("later", "", "first")));
        fleet.push("second declares later too", c -> c.write("apps/second/app.yaml", app("second"))
                .write("apps/second/manifests/later.yaml", cm("later", "", "second")));
        PassReport both = fleet.passLater();
        assertTrue(both.desired().apps().get("first").valid(), both.desired().diagnostics().toString());
        assertFalse(both.desired().apps().get("second").valid());
        assertEquals("first", live("later").getData().get("value"));
    }

    /** A new engine (fresh mirror, empty memory) picks up the record from Git and the cluster, and still prunes. */
    void recordSurvivesARestart() throws Exception {
        fleet.push("app", c -> c.write("clusters/c1.yaml", cluster()).write("apps/kept/app.yaml", app("kept"))
                .write("apps/kept/manifests/a.yaml", cm("a", "", "1")).write("apps/kept/manifests/b.yaml", cm("b", "", "1")));
        fleet.settle();
        try (Engine restarted = new Engine(Mirror.open(dir.resolve("engine-2"), GitRemote.anonymous(fleet.origin.toString())),
                "main", "windlass/status", fleet.sandbox, Clock.systemUTC())) {
            backend.resetWrites("c1");
            PassReport first = restarted.reconciler().reconcile();
            assertFalse(first.plan().hasChanges(), "nothing to do after a restart:\n" + first.plan());
            assertEquals(0, backend.writes("c1"), "a restarted engine writes nothing");
            fleet.push("drop b", c -> c.delete("apps/kept/manifests/b.yaml"));
            restarted.reconciler().reconcile();
            assertNull(live("b"), "pruned by the restarted engine");
            assertNotNull(live("a"));
        }
    }

}
