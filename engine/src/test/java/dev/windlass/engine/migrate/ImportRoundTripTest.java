package dev.windlass.engine.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.windlass.engine.render.AppRendering;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.render.RenderAccess;
import dev.windlass.render.RenderLimits;
import dev.windlass.render.RenderSandbox;
import dev.windlass.render.RenderTools;
import dev.windlass.render.Renderer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code windlass import} on the real-world fixtures, in real Git repositories: the branch it writes reads, natively,
 * as the repo read through its Flux or Argo CD objects did. What is compared, application by application (same names on
 * both sides): the clusters it is rendered for, and on each cluster every object it applies (group, kind, namespace, name,
 * the whole body, apply mode, gc policy and wave), its namespace, sync policy, dependencies, suspension and labels (less
 * {@code argocd.windlass.dev/name}, which marks an application as read from Argo CD). The comparison is this test's own,
 * not the one the command runs. Charts: podinfo is packaged from test-fixtures/real-world/podinfo-repo and served on
 * loopback; cert-manager's and Envoy Gateway's OCI charts are on the internet, which the tests do not reach: their
 * applications are written but not compared, and the command says so.
 */
class ImportRoundTripTest {
    static final Path FLUX = Path.of("..", "test-fixtures", "real-world", "flux2-kustomize-helm-example");
    static final Path ARGO = Path.of("..", "test-fixtures", "real-world", "argocd-example-apps");
    static final Path CHART = Path.of("..", "test-fixtures", "real-world", "podinfo-repo", "charts", "podinfo");

    @TempDir Path served;
    @TempDir Path work;
    private HttpServer server;
    private String url;

    private final AppRendering rendering = new AppRendering(new Renderer(RenderTools.fromEnvironment(), RenderLimits.DEFAULT,
            new RenderAccess(RenderSandbox.Mode.REQUIRED, false, true)));

    @BeforeEach
    void serveAChartRepository() throws Exception {
        run(List.of(RenderTools.fromEnvironment().helm().toString(), "package", CHART.toAbsolutePath().toString(), "--destination", served.toString()));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            Path file = served.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
            byte[] body = file.startsWith(served) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
        run(List.of(RenderTools.fromEnvironment().helm().toString(), "repo", "index", served.toString(), "--url", url));
    }

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    private void run(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Path home = Files.createTempDirectory(work, "home-");
        pb.environment().put("HOME", home.toString());
        pb.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        pb.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        pb.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
    }

    /** A Git working tree holding {@code root}'s files and {@code more}, committed on main. */
    private Path repo(Path root, Map<String, String> more) throws Exception {
        Path dir = Files.createTempDirectory(work, "repo-");
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                Path to = dir.resolve(root.relativize(p).toString());
                Files.createDirectories(to.getParent());
                Files.copy(p, to);
            }
        }
        for (var e : more.entrySet()) {
            Path to = dir.resolve(e.getKey());
            Files.createDirectories(to.getParent());
            Files.writeString(to, e.getValue());
        }
        try (Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("adopted").setAuthor("Test", "test@example.org").setCommitter("Test", "test@example.org").setSign(false).call();
        }
        return dir;
    }

    private static MapSnapshot snapshot(Path dir, String ref) throws IOException {
        try (Git git = Git.open(dir.toFile()); RevWalk walk = new RevWalk(git.getRepository()); TreeWalk tw = new TreeWalk(git.getRepository())) {
            RevCommit c = walk.parseCommit(git.getRepository().resolve(ref));
            tw.addTree(c.getTree());
            tw.setRecursive(true);
            Map<String, byte[]> files = new TreeMap<>();
            while (tw.next()) files.put(tw.getPathString(), git.getRepository().open(tw.getObjectId(0)).getBytes());
            return new MapSnapshot(c.name(), files);
        }
    }

    private record Outcome(int exit, String out, String err) {}

    private Outcome importing(Path dir, NativeImport.Tool tool) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = ImportRun.run(dir, tool, "windlass-import", rendering::read, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(exit, out.toString(), err.toString());
    }

    /** What a user sees of an application: per cluster, every object applied; and how it is applied. */
    private static Map<String, Object> seen(Application app) {
        Map<String, Object> out = new TreeMap<>();
        app.variants().forEach((cluster, v) -> {
            Map<String, Object> objects = new TreeMap<>();
            for (Manifest m : v.manifests()) {
                if (m.implicit()) continue;
                objects.put(m.ref().group() + "/" + m.ref().kind() + "/" + m.ref().namespace() + "/" + m.ref().name(),
                        List.of(m.body(), m.applyMode(), m.gcPolicy(), m.wave()));
            }
            out.put("on " + cluster, objects);
        });
        Map<String, String> labels = new TreeMap<>(app.labels());
        labels.remove("argocd.windlass.dev/name");
        out.put("labels", labels);
        out.put("namespace", app.namespace());
        out.put("syncPolicy", app.syncPolicy());
        out.put("dependsOn", app.dependsOn());
        out.put("suspend", app.suspend());
        return out;
    }

    /**
     * The application as it waits in the Flux reading: its dependencies, then, for each Kustomization among them with
     * {@code wait: true}, the applications of the HelmReleases its build printed (each release's application names the
     * Kustomization that printed it).
     */
    private static Application waiting(Application app, DesiredState all) {
        List<String> deps = new java.util.ArrayList<>(app.dependsOn());
        for (String dep : app.dependsOn()) {
            Application d = all.apps().get(dep);
            if (!d.render().flux().health().waitForPrinted() || dep.equals(app.render().flux().printedBy())) continue;
            all.apps().values().stream().filter(r -> r.render() != null && r.render().flux() != null && dep.equals(r.render().flux().printedBy()))
                    .forEach(r -> deps.add(r.name()));
        }
        return app.withDependsOn(deps);
    }

    private static String file(Path dir, String ref, String path) throws IOException {
        MapSnapshot s = snapshot(dir, ref);
        return s.files().containsKey(path) ? new String(s.read(path), StandardCharsets.UTF_8) : null;
    }

    static final String FLUX_ADOPTION = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              flux:
                clusters:
                  - path: clusters/{cluster}
            """;
    static final String FLUX_CLUSTERS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: staging, labels: {env: staging}}
            spec: {connection: {sandbox: {nodes: 1}}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: production, labels: {env: production}}
            spec: {connection: {sandbox: {nodes: 1}}}
            """;

    @Test
    void theFluxExamplesImportBranchReadsAsItsFluxObjectsDo() throws Exception {
        Map<String, String> more = new TreeMap<>();
        for (String f : List.of("apps/base/podinfo/repository.yaml", "infrastructure/controllers/cert-manager.yaml", "infrastructure/controllers/envoy-gateway.yaml")) {
            more.put(f, Files.readString(FLUX.resolve(f)).replace("url: https://stefanprodan.github.io/podinfo", "url: " + url)
                    .replaceAll("url: oci://[a-z.]+/", "url: oci://127.0.0.1:9/"));
        }
        more.put("windlass.yaml", FLUX_ADOPTION);
        more.put("windlass/clusters.yaml", FLUX_CLUSTERS);
        Path dir = repo(FLUX, more);
        String mainBefore = snapshot(dir, "main").commit();

        Outcome o = importing(dir, NativeImport.Tool.FLUX);
        assertEquals(0, o.exit(), o.out() + o.err());
        assertEquals(mainBefore, snapshot(dir, "main").commit(), "the checked-out branch is not moved");
        try (Git git = Git.open(dir.toFile())) {
            assertTrue(git.status().call().isClean(), "the working tree is not touched");
            assertEquals("refs/heads/main", git.getRepository().getFullBranch());
            RevCommit c = new RevWalk(git.getRepository()).parseCommit(git.getRepository().resolve("windlass-import"));
            assertEquals(1, c.getParentCount());
            assertEquals(mainBefore, c.getParent(0).name(), "one commit on top of main");
        }

        DesiredState flux = rendering.read(snapshot(dir, "main"));
        DesiredState nativeRead = rendering.read(snapshot(dir, "windlass-import"));
        List<String> imported = flux.apps().values().stream().filter(a -> NativeImport.origin(a, NativeImport.Tool.FLUX) != null).map(Application::name).toList();
        assertEquals(List.of("production-apps", "production-cert-manager", "production-envoy-gateway", "production-infra-configs",
                "production-infra-controllers", "production-podinfo", "staging-apps", "staging-cert-manager", "staging-envoy-gateway",
                "staging-infra-configs", "staging-infra-controllers", "staging-podinfo"), imported);
        assertEquals(flux.apps().keySet(), nativeRead.apps().keySet(), "the same application names");
        for (String name : imported) {
            Application a = nativeRead.apps().get(name);
            assertNull(NativeImport.origin(a, NativeImport.Tool.FLUX), name + " is native on the import branch");
            if (name.endsWith("cert-manager") || name.endsWith("envoy-gateway")) {
                // Their OCI charts are on the internet: not rendered here, on either side; the command says they were not compared.
                assertTrue(o.out().contains("  " + name + ": was the Flux HelmRelease ") && o.out().contains("not compared"), o.out());
                var was = flux.apps().get(name).render().helm();
                var now = a.render().helm();
                assertEquals(List.of(was.repoURL(), was.chart(), was.version(), was.releaseName(), was.values(), was.valuesFiles(), was.skipCrds()),
                        List.of(now.repoURL(), now.chart(), now.version(), now.releaseName(), now.values(), now.valuesFiles(), now.skipCrds()), name);
                continue;
            }
            assertTrue(flux.apps().get(name).valid(), flux.apps().get(name).diagnostics().toString());
            assertTrue(a.valid(), name + ": " + a.diagnostics());
            assertFalse(flux.apps().get(name).variants().isEmpty(), name);
            assertEquals(seen(waiting(flux.apps().get(name), flux)), seen(a), name);
        }
        // infra-controllers says wait: true: what depends on it waits for the releases its build prints, natively by dependsOn.
        assertEquals(List.of("staging-infra-controllers", "staging-cert-manager", "staging-envoy-gateway"),
                nativeRead.apps().get("staging-infra-configs").dependsOn());
        assertTrue(o.out().contains("note: staging-infra-configs: dependsOn also names staging-cert-manager, staging-envoy-gateway, which the"
                + " Flux Kustomizations it depends on wait for (wait: true, healthChecks)"), o.out());
        // The Flux objects it replaces are gone, and the mapping with them; everything else is kept.
        assertFalse(file(dir, "windlass-import", "clusters/staging/apps.yaml").contains("kustomize.toolkit.fluxcd.io"));
        assertNull(file(dir, "windlass-import", "clusters/staging/artifacts.yaml"));
        assertFalse(file(dir, "windlass-import", "windlass.yaml").contains("flux"));
        assertEquals(file(dir, "main", "clusters/staging/flux-system/gotk-components.yaml"),
                file(dir, "windlass-import", "clusters/staging/flux-system/gotk-components.yaml"));
        // The only errors on either side: the charts on the internet, which cannot be fetched here, said alike.
        assertEquals(flux.diagnostics().stream().filter(d -> d.isError()).map(d -> d.message()).sorted().toList(),
                nativeRead.diagnostics().stream().filter(d -> d.isError()).map(d -> d.message()).sorted().toList());
        assertTrue(nativeRead.diagnostics().stream().filter(d -> d.isError()).allMatch(d -> d.message().contains("127.0.0.1:9")));
    }

    static final String SECRET_VALUE = "s3cret-from-the-values-4b1d";
    static final String SUBSTITUTED = "s3cret-substituted-77e0";

    /**
     * What the native format cannot say is an error at its field, and only that application (with what is read together
     * with it) is left as it was: a HelmRelease's values from a Secret (the native values are written in Git), and a
     * Kustomization's postBuild (substituteFrom a Secret). The others are written, and no Secret value is in the branch.
     */
    @Test
    void whatTheNativeFormatCannotSayIsALocatedErrorAndTheOthersAreStillWritten() throws Exception {
        Map<String, String> files = new TreeMap<>();
        files.put("windlass.yaml", FLUX_ADOPTION);
        files.put("windlass/clusters.yaml", FLUX_CLUSTERS);
        files.put("clusters/staging/apps.yaml", """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: web, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./web
                ---
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: db, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./db
                  prune: true
                ---
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: cache, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./cache
                  postBuild:
                    substituteFrom: [{kind: Secret, name: cache-vars}]
                """);
        files.put("clusters/staging/vars.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: cache-vars, namespace: flux-system}\nstringData: {password: "
                + SUBSTITUTED + "}\n");
        files.put("web/kustomization.yaml", "resources: [namespace.yaml, release.yaml, values.yaml]\n");
        files.put("web/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: web}\n");
        files.put("web/values.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: web-values, namespace: web}\nstringData:\n  values.yaml: |\n    ui: {message: "
                + SECRET_VALUE + "}\n");
        files.put("web/release.yaml", """
                apiVersion: helm.toolkit.fluxcd.io/v2
                kind: HelmRelease
                metadata: {name: frontend, namespace: web}
                spec:
                  chart:
                    spec:
                      chart: ./charts/podinfo
                      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                  valuesFrom:
                    - kind: Secret
                      name: web-values
                """);
        files.put("db/kustomization.yaml", "resources: [config.yaml]\n");
        files.put("db/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db, namespace: default}\ndata: {url: db.internal}\n");
        files.put("cache/kustomization.yaml", "resources: [config.yaml]\n");
        files.put("cache/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cache, namespace: default}\ndata: {password: \"${password}\"}\n");
        Path dir = repo(CHART.getParent().getParent(), files);  // podinfo-repo: its charts/podinfo, and the files above

        Outcome o = importing(dir, NativeImport.Tool.FLUX);
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("  staging-db: was the Flux Kustomization db (clusters/staging/apps.yaml:8:1)"), o.out());
        assertTrue(o.out().contains("web/release.yaml:10:13: HelmRelease.spec.valuesFrom[0] reads values from a Secret, which a native Application"
                + " cannot reference"), o.out());
        assertTrue(o.out().contains("clusters/staging/apps.yaml:1:1: staging-web is read together with staging-frontend"), o.out());
        assertTrue(o.out().contains("clusters/staging/apps.yaml:22:3: Kustomization.spec.postBuild substitutes variables"), o.out());
        assertTrue(o.out().contains("3 applications were left as Flux reads them (the others are written)"), o.out());

        MapSnapshot branch = snapshot(dir, "windlass-import");
        for (String path : branch.files().keySet()) {
            String text = new String(branch.read(path), StandardCharsets.UTF_8);
            assertFalse(text.contains(SECRET_VALUE) && !path.equals("web/values.yaml"), path + " holds the Secret's value");
            assertFalse(text.contains(SUBSTITUTED) && !path.equals("clusters/staging/vars.yaml"), path + " holds the substituted Secret's value");
        }
        String apps = file(dir, "windlass-import", "clusters/staging/apps.yaml");
        assertTrue(apps.contains("kind: Application\nmetadata:\n  name: staging-db"), apps);
        assertTrue(apps.contains("metadata: {name: web, namespace: flux-system}") && apps.contains("metadata: {name: cache, namespace: flux-system}"),
                "the others are kept as they were:\n" + apps);
        assertTrue(file(dir, "windlass-import", "windlass.yaml").contains("flux"), "Flux objects are left: the mapping stays");
        DesiredState after = rendering.read(branch);
        assertEquals(List.of("staging-cache", "staging-db", "staging-frontend", "staging-web"), List.copyOf(after.apps().keySet()));
        assertNull(NativeImport.origin(after.apps().get("staging-db"), NativeImport.Tool.FLUX));
        assertEquals(seen(rendering.read(snapshot(dir, "main")).apps().get("staging-db")), seen(after.apps().get("staging-db")));
    }

    /**
     * healthChecks in the native format: an entry naming a HelmRelease becomes a dependency of what depends on the
     * Kustomization; an entry naming an object has no native form, and is an error at the entry that leaves that
     * Kustomization as it was. A Kustomization left as it was keeps what it depends on as it was too when only the Flux
     * reading would make it wait for their healthChecks; the others are written.
     */
    @Test
    void healthChecksNamingAReleaseBecomeDependenciesAndOneNamingAnObjectIsALocatedError() throws Exception {
        Map<String, String> files = new TreeMap<>();
        files.put("windlass.yaml", FLUX_ADOPTION);
        files.put("windlass/clusters.yaml", FLUX_CLUSTERS);
        files.put("clusters/staging/apps.yaml", """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: web, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./web
                  healthChecks:
                    - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease, name: frontend, namespace: web}
                ---
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: db, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./db
                  dependsOn: [{name: web}]
                """);
        String cache = """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: cache, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./cache
                  healthChecks:
                    - {apiVersion: v1, kind: ConfigMap, name: db, namespace: default}
                """;
        files.put("clusters/staging/cache.yaml", cache);
        files.put("web/kustomization.yaml", "resources: [namespace.yaml, release.yaml]\n");
        files.put("web/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: web}\n");
        files.put("web/release.yaml", """
                apiVersion: helm.toolkit.fluxcd.io/v2
                kind: HelmRelease
                metadata: {name: frontend, namespace: web}
                spec:
                  chart:
                    spec:
                      chart: ./charts/podinfo
                      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                """);
        files.put("db/kustomization.yaml", "resources: [config.yaml]\n");
        files.put("db/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db, namespace: default}\ndata: {url: db.internal}\n");
        files.put("cache/kustomization.yaml", "resources: [config.yaml]\n");
        files.put("cache/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cache, namespace: default}\ndata: {size: 1Gi}\n");
        Path dir = repo(CHART.getParent().getParent(), files);

        Outcome o = importing(dir, NativeImport.Tool.FLUX);
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("clusters/staging/cache.yaml:8:7: Kustomization.spec.healthChecks names ConfigMap default/db, an object: a"
                + " native Application waits for applications to be Healthy (dependsOn), not for one object; name the HelmRelease or"
                + " Kustomization that applies it instead and import again, or keep this Kustomization on Flux"), o.out());
        assertTrue(o.out().contains("1 application was left as Flux reads it"), o.out());
        assertTrue(o.out().contains("note: staging-db: dependsOn also names staging-frontend, which the Flux Kustomizations it depends on"
                + " wait for (wait: true, healthChecks)"), o.out());
        DesiredState before = rendering.read(snapshot(dir, "main"));
        DesiredState after = rendering.read(snapshot(dir, "windlass-import"));
        assertEquals(List.of("staging-cache", "staging-db", "staging-frontend", "staging-web"), List.copyOf(after.apps().keySet()));
        assertEquals(before.apps().get("staging-cache").render().flux().origin(), NativeImport.origin(after.apps().get("staging-cache"),
                NativeImport.Tool.FLUX), "cache is left as Flux reads it");
        for (String written : List.of("staging-db", "staging-frontend", "staging-web")) {
            assertNull(NativeImport.origin(after.apps().get(written), NativeImport.Tool.FLUX), written + " is written natively");
            assertTrue(after.apps().get(written).valid(), written + ": " + after.apps().get(written).diagnostics());
        }
        Application db = after.apps().get("staging-db");
        assertEquals(List.of("staging-web", "staging-frontend"), db.dependsOn(), "db waits for web's healthChecks' release, as it did");
        assertEquals(seen(before.apps().get("staging-db").withDependsOn(List.of("staging-web", "staging-frontend"))), seen(db));

        // cache, left as it was, depends on web: web stays a Flux Kustomization (and its release with it), or cache would no
        // longer wait for frontend.
        files.put("clusters/staging/cache.yaml", cache.replace("  path: ./cache\n", "  path: ./cache\n  dependsOn: [{name: web}]\n"));
        Path again = repo(CHART.getParent().getParent(), files);
        Outcome o2 = importing(again, NativeImport.Tool.FLUX);
        assertEquals(1, o2.exit(), o2.out() + o2.err());
        assertTrue(o2.out().contains("clusters/staging/apps.yaml:1:1: staging-web is left as it was: staging-cache depends on it and is left as"
                + " it was, and only the Flux reading makes staging-cache wait for what staging-web's wait and healthChecks name"), o2.out());
        assertTrue(o2.out().contains("clusters/staging/apps.yaml:1:1: staging-frontend is read together with staging-web"), o2.out());
        DesiredState after2 = rendering.read(snapshot(again, "windlass-import"));
        assertNull(NativeImport.origin(after2.apps().get("staging-db"), NativeImport.Tool.FLUX), "db is still written");
        assertEquals(List.of("staging-web"), after2.apps().get("staging-db").dependsOn(),
                "it depends on web, a Flux Kustomization still, whose healthChecks it waits for as before");
    }

    static final String ARGO_ADOPTION = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              argocd:
                repoURLs: [https://github.com/argoproj/argocd-example-apps.git]
            """;

    static final String CLUSTERS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata:
              name: in-cluster
              annotations: {argocd.windlass.dev/server: "https://kubernetes.default.svc"}
            spec: {connection: {sandbox: {nodes: 1}}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: production}
            spec: {connection: {sandbox: {nodes: 1}}}
            """;
    /** The root: applies argocd/apps/, where the Applications of the examples are. */
    static final String ROOT_APP = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata:
              name: root
              namespace: argocd
            spec:
              project: default
              source:
                repoURL: https://github.com/argoproj/argocd-example-apps.git
                targetRevision: HEAD
                path: argocd/apps
              destination: {server: "https://kubernetes.default.svc", namespace: argocd}
              syncPolicy:
                automated: {prune: true, selfHeal: true}
            """;
    static final String GUESTBOOK = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata:
              name: guestbook
              namespace: argocd
              finalizers: [resources-finalizer.argocd.argoproj.io]
            spec:
              project: default
              source:
                repoURL: https://github.com/argoproj/argocd-example-apps.git
                targetRevision: HEAD
                path: guestbook
              destination: {server: "https://kubernetes.default.svc", namespace: guestbook}
              syncPolicy:
                automated: {prune: true, selfHeal: true}
                syncOptions: [CreateNamespace=true]
            """;
    static final String KUSTOMIZE_GUESTBOOK = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata:
              name: kustomize-guestbook
              namespace: argocd
            spec:
              project: default
              source:
                repoURL: https://github.com/argoproj/argocd-example-apps.git
                targetRevision: HEAD
                path: kustomize-guestbook
                kustomize:
                  namePrefix: prod-
                  images: [gcr.io/google-samples/gb-frontend:v6]
                  commonLabels: {team: guestbook}
              destination: {name: production, namespace: kustomize-guestbook}
              syncPolicy:
                automated: {prune: true}
            """;
    static final String HELM_GUESTBOOK = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata:
              name: helm-guestbook
              namespace: argocd
            spec:
              project: default
              source:
                repoURL: https://github.com/argoproj/argocd-example-apps
                targetRevision: HEAD
                path: helm-guestbook
                helm:
                  releaseName: guestbook
                  valueFiles: [values-production.yaml]
                  values: |
                    replicaCount: 2
                    service:
                      port: 8080
                  parameters:
                    - {name: service.port, value: "8081"}
                    - {name: image.tag, value: "5", forceString: true}
              destination: {name: production, namespace: helm-guestbook}
              syncPolicy:
                automated: {prune: true, selfHeal: true}
            """;

    /** An ApplicationSet beside them: one Helm guestbook per element, each on its own cluster. */
    static final String PREVIEWS = """
            apiVersion: argoproj.io/v1alpha1
            kind: ApplicationSet
            metadata: {name: previews, namespace: argocd}
            spec:
              generators:
                - list:
                    elements:
                      - {name: blue, cluster: in-cluster}
                      - {name: green, cluster: production}
              template:
                metadata: {name: "preview-{{name}}"}
                spec:
                  project: default
                  source:
                    repoURL: https://github.com/argoproj/argocd-example-apps.git
                    path: helm-guestbook
                    helm:
                      releaseName: "preview-{{name}}"
                      valuesObject: {replicaCount: 1}
                  destination: {name: "{{cluster}}", namespace: "preview-{{name}}"}
                  syncPolicy: {automated: {prune: true}}
            """;

    /** What a team adds to Argo CD's example apps to adopt them, as the Argo CD tests of policy-eval (ArgoFixture) add it. */
    static Map<String, String> argoAdoption() {
        Map<String, String> files = new TreeMap<>();
        files.put("windlass.yaml", ARGO_ADOPTION);
        files.put("windlass/clusters.yaml", CLUSTERS);
        files.put("argocd/root.yaml", ROOT_APP);
        files.put("argocd/apps/guestbook.yaml", GUESTBOOK);
        files.put("argocd/apps/kustomize-guestbook.yaml", KUSTOMIZE_GUESTBOOK);
        files.put("argocd/apps/helm-guestbook.yaml", HELM_GUESTBOOK);
        files.put("argocd/apps/previews.yaml", PREVIEWS);
        return files;
    }

    @Test
    void theArgoExamplesImportBranchReadsAsItsApplicationsDo() throws Exception {
        Path dir = repo(ARGO, argoAdoption());
        Outcome o = importing(dir, NativeImport.Tool.ARGOCD);
        assertEquals(0, o.exit(), o.out() + o.err());
        DesiredState argo = rendering.read(snapshot(dir, "main"));
        DesiredState nativeRead = rendering.read(snapshot(dir, "windlass-import"));
        List<String> imported = argo.apps().values().stream().filter(a -> NativeImport.origin(a, NativeImport.Tool.ARGOCD) != null).map(Application::name).toList();
        assertEquals(List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "preview-blue", "preview-green", "root"), imported);
        assertEquals(argo.apps().keySet(), nativeRead.apps().keySet());
        for (String name : imported) {
            Application a = nativeRead.apps().get(name);
            assertNull(NativeImport.origin(a, NativeImport.Tool.ARGOCD), name + " is native on the import branch");
            assertTrue(a.valid(), name + ": " + a.diagnostics());
            assertEquals(seen(argo.apps().get(name)), seen(a), name);
        }
        assertFalse(file(dir, "windlass-import", "argocd/apps/guestbook.yaml").contains("argoproj.io"));
        assertFalse(file(dir, "windlass-import", "windlass.yaml").contains("argocd"));
        String previews = file(dir, "windlass-import", "argocd/apps/previews.yaml");
        assertFalse(previews.contains("ApplicationSet"), previews);
        assertTrue(previews.contains("name: preview-blue") && previews.contains("name: preview-green"), "the set's document is replaced by its Applications:\n" + previews);
        assertEquals(List.of(), nativeRead.diagnostics().stream().filter(d -> d.isError()).map(Object::toString).toList());
    }

    /**
     * Two Argo CD Applications reading one plain folder, for two clusters: Argo CD allows it, a native Application does
     * not (one folder per application). The import says so at each, from what the native reading says, and writes none.
     */
    @Test
    void twoApplicationsOfOneFolderAreLeftAsTheyWereWithTheNativeReadingsError() throws Exception {
        Map<String, String> files = new TreeMap<>(argoAdoption());
        files.remove("argocd/apps/previews.yaml");
        files.put("argocd/apps/guestbook-production.yaml", GUESTBOOK.replace("name: guestbook\n", "name: guestbook-production\n")
                .replace("destination: {server: \"https://kubernetes.default.svc\", namespace: guestbook}", "destination: {name: production, namespace: guestbook}"));
        Path dir = repo(ARGO, files);
        Outcome o = importing(dir, NativeImport.Tool.ARGOCD);
        assertEquals(2, o.exit(), o.out() + o.err());
        assertTrue(o.err().contains("argocd/apps/guestbook.yaml:1:1: the native Application written for guestbook reads differently from the Argo CD"
                + " object: it has errors: "), o.err());
        assertTrue(o.err().contains("no application could be written natively; nothing was committed"), o.err());
        try (Git git = Git.open(dir.toFile())) {
            assertNull(git.getRepository().exactRef("refs/heads/windlass-import"), "no branch is written");
        }
    }

    /**
     * However a Secret's value comes into what would be written (here a kustomize patch adds the valuesFrom, which no
     * HelmRelease document shows), import writes none: the application is left as it was, the error names the Secret.
     */
    @Test
    void aSecretsValueBroughtInByAPatchIsNeverWritten() throws Exception {
        Map<String, String> files = new TreeMap<>();
        files.put("windlass.yaml", FLUX_ADOPTION);
        files.put("windlass/clusters.yaml", FLUX_CLUSTERS);
        files.put("clusters/staging/apps.yaml", """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: backend, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./api
                """);
        files.put("api/kustomization.yaml", """
                resources: [namespace.yaml, release.yaml, values.yaml]
                patches:
                  - target: {kind: HelmRelease, name: api}
                    patch: '[{"op": "add", "path": "/spec/valuesFrom", "value": [{"kind": "Secret", "name": "api-values"}]}]'
                """);
        files.put("api/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: api}\n");
        files.put("api/values.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: api-values, namespace: api}\ndata:\n  values.yaml: "
                + java.util.Base64.getEncoder().encodeToString(("ui:\n  message: " + SECRET_VALUE + "\n").getBytes(StandardCharsets.UTF_8)) + "\n");
        files.put("api/release.yaml", """
                apiVersion: helm.toolkit.fluxcd.io/v2
                kind: HelmRelease
                metadata: {name: api, namespace: api}
                spec:
                  chart:
                    spec:
                      chart: ./charts/podinfo
                      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                """);
        Path dir = repo(CHART.getParent().getParent(), files);
        Outcome o = importing(dir, NativeImport.Tool.FLUX);
        assertEquals(2, o.exit(), o.out() + o.err());
        assertTrue(o.err().contains("clusters/staging/apps.yaml:1:1: what would be written for staging-api holds a value of Secret api/api-values"
                + " (api/values.yaml:1:1), and import writes no Secret value into Git"), o.err());
        assertFalse((o.out() + o.err()).contains(SECRET_VALUE), "the value itself is never printed");
        try (Git git = Git.open(dir.toFile())) {
            assertNull(git.getRepository().exactRef("refs/heads/windlass-import"), "no branch is written");
        }
    }

    /** The Helm guestbook of two sources: the chart, with a value file of this repo (envs/prod/values.yaml) through a ref. */
    static final String SOURCES_WEB = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: web, namespace: argocd}
            spec:
              sources:
                - repoURL: https://github.com/argoproj/argocd-example-apps.git
                  path: helm-guestbook
                  helm:
                    valueFiles: [values-production.yaml, $values/envs/prod/values.yaml]
                    valuesObject: {replicaCount: 2}
                - repoURL: https://github.com/argoproj/argocd-example-apps.git
                  targetRevision: HEAD
                  ref: values
              destination: {name: production, namespace: web}
              syncPolicy: {automated: {prune: true}}
            """;
    static final String SOURCES_WEB_VALUES = "replicaCount: 3\nservice: {port: 8082}\n";

    /**
     * Argo CD Applications of several sources: a chart of the repo with a value file of the repo through a ref is written as
     * a native Application (its values files in the same order, the inline values last) that reads as the Argo CD one does;
     * one of two plain directories, which a native Application cannot say, is a located error, and the others are written.
     * Both are roots of their own (teams/, which no Application applies): a child is written with its parent or not at all.
     */
    @Test
    void anApplicationOfAChartWithValueFilesThroughARefIsWrittenAndOneOfTwoDirectoriesIsALocatedError() throws Exception {
        Map<String, String> files = new TreeMap<>(argoAdoption());
        files.remove("argocd/apps/previews.yaml");
        files.put("envs/prod/values.yaml", SOURCES_WEB_VALUES);
        files.put("config/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n");
        files.put("teams/web.yaml", SOURCES_WEB);
        files.put("teams/two.yaml", """
                apiVersion: argoproj.io/v1alpha1
                kind: Application
                metadata: {name: two, namespace: argocd}
                spec:
                  sources:
                    - {repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: guestbook}
                    - {repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: config}
                  destination: {name: production, namespace: two}
                  syncPolicy: {automated: {prune: true}}
                """);
        Path dir = repo(ARGO, files);
        DesiredState argo = rendering.read(snapshot(dir, "main"));
        assertEquals(List.of(), argo.diagnostics().stream().filter(d -> d.isError()).map(Object::toString).toList());

        Outcome o = importing(dir, NativeImport.Tool.ARGOCD);
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("teams/two.yaml:5:3: Argo CD Application two applies the files of several plain directories of"
                + " spec.sources (guestbook, and config/settings.yaml), which a native Application cannot say: it reads one spec.source.path;"
                + " move the files into one folder and give one source, then import again, or keep this Application on Argo CD"), o.out());
        DesiredState nativeRead = rendering.read(snapshot(dir, "windlass-import"));
        Application web = nativeRead.apps().get("web");
        assertNull(NativeImport.origin(web, NativeImport.Tool.ARGOCD), "web is native on the import branch");
        assertTrue(web.valid(), web.diagnostics().toString());
        assertEquals(seen(argo.apps().get("web")), seen(web));
        String written = file(dir, "windlass-import", "teams/web.yaml");
        assertTrue(written.contains("valuesFiles: [helm-guestbook/values-production.yaml, envs/prod/values.yaml, imported/web/values.yaml]")
                || written.contains("- helm-guestbook/values-production.yaml\n        - envs/prod/values.yaml\n        - imported/web/values.yaml"), written);
        assertTrue(file(dir, "windlass-import", "teams/two.yaml").contains("argoproj.io"), "two is left as it was");
    }
}
