package dev.windlass.engine.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.dashboard.Dashboard;
import dev.windlass.dashboard.DashboardServer;
import dev.windlass.dashboard.GitLinks;
import dev.windlass.engine.TestFleet;
import dev.windlass.engine.cli.Main;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.render.PlanMarkdown;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where each imported application comes from, everywhere a person looks: the plan lists the Flux or Argo CD object's file
 * and line; the status branch records the same object (tool, kind, name, file, line, column) in the application's file;
 * {@code windlass status} prints it; and the dashboard's application page, read in a real browser, shows it. A native
 * application shows none.
 */
class ImportOriginBrowserIT {
    @TempDir Path dir;

    static final String KUSTOMIZATION = """
            apiVersion: kustomize.toolkit.fluxcd.io/v1
            kind: Kustomization
            metadata: {name: db, namespace: flux-system}
            spec:
              sourceRef: {kind: GitRepository, name: flux-system}
              path: ./apps/db
              prune: true
              targetNamespace: db
            """;
    static final String ARGO_APP = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: shop, namespace: argocd}
            spec:
              project: default
              source: {repoURL: "https://git.example/fleet.git", path: apps/shop}
              destination: {name: staging, namespace: shop}
              syncPolicy: {automated: {prune: true}}
            """;
    static final String NATIVE = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata: {name: web}
            spec:
              source: {path: apps/web}
              namespace: web
              placement: {clusterNames: [staging]}
            """;

    @Test
    void theOriginOfEachImportedApplicationIsInThePlanTheStatusBranchTheStatusCommandAndTheDashboard() throws Exception {
        try (TestFleet fleet = new TestFleet(dir); Browser b = Browser.open(DashboardBrowserIT.SHOTS)) {
            fleet.push("a fleet with Flux, Argo CD and native applications", c -> c
                    .write("windlass.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: Settings
                            spec:
                              flux:
                                clusters:
                                  - path: clusters/{cluster}
                              argocd:
                                repoURLs: [https://git.example/fleet.git]
                            """)
                    .write("windlass/staging.yaml", fleet.clusterYaml("staging", "env: staging", 1, 0, ""))
                    .write("clusters/staging/infra.yaml", "# the database\n---\n" + KUSTOMIZATION)
                    .write("argocd/shop.yaml", ARGO_APP)
                    .write("apps/web.yaml", NATIVE)
                    .write("apps/db/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\ndata: {url: db.internal}\n")
                    .write("apps/shop/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop}\ndata: {k: v}\n")
                    .write("apps/web/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {k: v}\n"));
            PassReport pass = fleet.settle();
            String plan = PlanMarkdown.render(pass.plan(), "main");
            assertTrue(plan.contains("| staging-db | `clusters/staging/infra.yaml:3:1` |"), plan);
            assertTrue(plan.contains("| shop | `argocd/shop.yaml:1:1` |"), plan);

            // The status branch records the same object, as a record.
            String db = fleet.statusFile("status/apps/staging-db.yaml");
            assertTrue(db.contains("""
                    origin:
                      tool: "Flux"
                      kind: "Kustomization"
                      name: "db"
                      path: "clusters/staging/infra.yaml"
                      line: 3
                      column: 1
                    """) || db.contains("origin:\n  tool: Flux\n  kind: Kustomization\n  name: db\n  path: clusters/staging/infra.yaml\n  line: 3\n  column: 1\n"), db);
            String shop = fleet.statusFile("status/apps/shop.yaml");
            assertTrue(shop.replace("\"", "").contains("origin:\n  tool: ArgoCD\n  kind: Application\n  name: shop\n  path: argocd/shop.yaml\n  line: 1\n"), shop);
            assertFalse(fleet.statusFile("status/apps/web.yaml").contains("origin:"), "a native application has no origin");

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "status", "--repo", fleet.origin.toString(),
                    "--workdir", dir.resolve("cli").toString());
            assertEquals(0, code, err.toString());
            String status = out.toString();
            assertTrue(status.matches("(?s).*\nIMPORTED +FROM +KIND +NAME +FILE *\n.*"), status);
            assertTrue(status.matches("(?s).*\nshop +Argo CD +Application +shop +argocd/shop\\.yaml:1 *\n.*"), status);
            assertTrue(status.matches("(?s).*\nstaging-db +Flux +Kustomization +db +clusters/staging/infra\\.yaml:3 *\n.*"), status);
            assertFalse(status.matches("(?s).*\nweb +(Flux|Argo).*"), status);

            try (DashboardServer server = new DashboardServer(new InetSocketAddress("127.0.0.1", 0),
                    new Dashboard(fleet.engine.views(), null, GitLinks.NONE)).start()) {
                String base = "http://127.0.0.1:" + server.port();
                b.go(base + "/apps/staging-db");
                assertEquals("Flux Kustomization db, clusters/staging/infra.yaml:3", b.text("#origin"));
                b.screenshot("app-imported-from-flux");
                b.go(base + "/apps/shop");
                assertEquals("Argo CD Application shop, argocd/shop.yaml:1", b.text("#origin"));
                b.go(base + "/apps/web");
                assertTrue(b.all("#origin").isEmpty(), "a native application shows no origin");
                assertTrue(b.text("dl.facts").contains("Defined in"), b.text("dl.facts"));
            }
        }
    }
}
