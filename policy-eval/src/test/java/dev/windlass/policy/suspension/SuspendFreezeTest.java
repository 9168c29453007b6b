package dev.windlass.policy.suspension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.parse.RepoParser;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SuspendFreezeTest {
    static final String CLUSTER = "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: \"%s\"}\nspec: {connection: {sandbox: {}}}\n";
    static final String APP = "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: \"%s\"}\nspec: {placement: {clusterSelector: {}}}\n";

    static DesiredState withSuspension(String app, String cluster, String reason) {
        return RepoParser.parse(RepoFiles.inline("clusters/c.yaml", CLUSTER.formatted(cluster), "apps/a/app.yaml", APP.formatted(app),
                "apps/a/manifests/x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
                SuspendFreeze.path(app, cluster), SuspendFreeze.yaml(app, cluster, reason)));
    }

    @Test
    void theFileReadsBackAsAnOpenEndedFreezeOfOneAppOnOneCluster() {
        assertEquals("""
                # Written by `windlass suspend app web --cluster eu-1`; `windlass resume app web --cluster eu-1` removes it.
                apiVersion: windlass.dev/v1alpha1
                kind: Freeze
                metadata:
                  name: suspend-web-on-eu-1
                spec:
                  applications: ["web"]
                  clusterNames: ["eu-1"]
                  reason: "disk \\"full\\" \\\\ again (Alice)"
                """, SuspendFreeze.yaml("web", "eu-1", "disk \"full\" \\ again (Alice)"));
        DesiredState s = withSuspension("web", "eu-1", "disk \"full\" \\ again (Alice)");
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        Freeze f = s.freezes().get(0);
        assertEquals("freezes/suspend-web-on-eu-1.yaml", f.location().path());
        assertEquals("disk \"full\" \\ again (Alice)", f.reason());
        assertTrue(f.coversApp("web", Map.of()) && !f.coversApp("api", Map.of()));
        assertTrue(f.coversCluster("eu-1", Map.of()) && !f.coversCluster("eu-2", Map.of()));
        assertEquals("Freeze/suspend-web-on-eu-1 until the Freeze is removed",
                FreezeWindow.describe(f, FreezeWindow.openAt(f, Instant.parse("2026-11-22T10:00:00Z")).orElseThrow()));
    }

    @Test
    void namesThatYamlWouldReadAsOtherTypesAndLongNamesStillWork() {
        DesiredState numbers = withSuspension("null", "123", "x");
        assertEquals(List.of(), numbers.diagnostics().stream().map(Object::toString).toList());
        assertEquals(List.of("null"), numbers.freezes().get(0).applications());
        String app = "a".repeat(40);
        String cluster = "c".repeat(40);
        DesiredState longNames = withSuspension(app, cluster, "x");
        assertEquals(List.of(), longNames.diagnostics().stream().map(Object::toString).toList());
        assertEquals(SuspendFreeze.name(app, cluster), longNames.freezes().get(0).name());
        assertEquals(24, SuspendFreeze.name(app, cluster).length(), SuspendFreeze.name(app, cluster));
        assertEquals("freezes/suspend-" + app + "-on-" + cluster + ".yaml", SuspendFreeze.path(app, cluster), "the file keeps the readable name");
    }

    /** The kind of hold travels as data; the Suspended condition's reason is read from it, never from the words. */
    @Test
    void eachHoldSaysWhatKindItIs() {
        String suspendedCluster = "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: eu-1}\nspec: {suspend: true, connection: {sandbox: {}}}\n";
        String suspendedApp = "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec: {suspend: true, placement: {clusterSelector: {}}}\n";
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", suspendedCluster, "clusters/eu-2.yaml", CLUSTER.formatted("eu-2"),
                "apps/web/app.yaml", suspendedApp, "apps/web/manifests/x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
                "apps/api/app.yaml", APP.formatted("api"), "apps/api/manifests/x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n",
                SuspendFreeze.path("api", "eu-2"), SuspendFreeze.yaml("api", "eu-2", "disk full")));
        assertEquals(List.of(), s.diagnostics().stream().map(Object::toString).toList());
        Suspensions at = Suspensions.at(s, Instant.parse("2026-11-22T10:00:00Z"));

        assertEquals(new Hold(Hold.Reason.ApplicationSuspended, "Application/web suspended"), at.hold("web", Map.of(), "eu-2"));
        assertEquals(new Hold(Hold.Reason.ClusterSuspended, "Cluster/eu-1 suspended"), at.hold("api", Map.of(), "eu-1"));
        assertEquals(new Hold(Hold.Reason.Frozen, "Freeze/suspend-api-on-eu-2 until the Freeze is removed: disk full"), at.hold("api", Map.of(), "eu-2"));
        assertEquals("Freeze/suspend-api-on-eu-2 until the Freeze is removed: disk full", at.hold("api", Map.of(), "eu-2").text());
    }
}
