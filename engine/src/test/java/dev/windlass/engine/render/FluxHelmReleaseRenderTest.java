package dev.windlass.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.render.RenderAccess;
import dev.windlass.render.RenderLimits;
import dev.windlass.render.RenderRequest;
import dev.windlass.render.RenderSandbox;
import dev.windlass.render.RenderTools;
import dev.windlass.render.Renderer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * A Flux HelmRelease that a Kustomization's build prints is an application of its own, whose objects equal what the real
 * {@code helm template} prints for the same chart and values. The chart is podinfo 6.14.1 (the fixture's chart, by the
 * same name; its repository's newest version), packaged by the pinned helm and served on loopback by the test's own
 * chart repository, so nothing reaches the internet.
 */
class FluxHelmReleaseRenderTest {
    static final Path CHART = Path.of("..", "test-fixtures", "real-world", "podinfo-repo", "charts", "podinfo");

    @TempDir Path served;
    @TempDir Path work;
    private HttpServer server;
    private String url;

    /** Allowed to fetch from the loopback repository, as an engine started with --render-allow=private-hosts. */
    private final AppRendering rendering = new AppRendering(new Renderer(RenderTools.fromEnvironment(), RenderLimits.DEFAULT,
            new RenderAccess(RenderSandbox.Mode.REQUIRED, false, true)));

    @BeforeEach
    void serveAChartRepository() throws Exception {
        run(List.of(RenderTools.fromEnvironment().helm().toString(), "package", CHART.toAbsolutePath().toString(), "--destination",
                served.toString()));
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

    private String run(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        Path home = Files.createTempDirectory(work, "home-");
        pb.environment().put("HOME", home.toString());
        pb.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        pb.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        pb.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + out);
        return out;
    }

    /** The fixture, its chart sources on loopback (the podinfo repository this test's), with the cluster mapping added. */
    private MapSnapshot fixture() throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(FluxRenderTest.FIXTURE)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put(FluxRenderTest.FIXTURE.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        FluxRenderTest.offline(FluxRenderTest.FIXTURE, url).forEach((p, text) -> files.put(p, text.getBytes(StandardCharsets.UTF_8)));
        files.put("windlass.yaml", FluxRenderTest.WINDLASS.getBytes(StandardCharsets.UTF_8));
        return new MapSnapshot("00000000000000000000000000000000000000f2", files);
    }

    /** The values Flux gives Helm for staging: the base release's, then the staging patch's (kustomize replaces the list). */
    static final String STAGING_VALUES = """
            redis:
              enabled: true
              repository: public.ecr.aws/docker/library/redis
              tag: 8.6.2
            httpRoute:
              enabled: true
              parentRefs:
                - name: envoy
                  namespace: envoy-gateway-system
                  sectionName: http
              hostnames:
                - podinfo.staging
              rules:
                - matches:
                    - path:
                        type: PathPrefix
                        value: /
            """;

    @Test
    void theFixturesStagingPodinfoReleaseIsReadWithItsChartVersionRepositoryAndValues() throws Exception {
        DesiredState s = rendering.read(fixture());
        Application podinfo = s.apps().get("staging-podinfo");
        assertNotNull(podinfo, s.apps().keySet().toString());
        RenderSpec.Helm helm = podinfo.render().helm();
        assertEquals(url, helm.repoURL());
        assertEquals("podinfo", helm.chart());
        assertEquals(">=1.0.0-alpha", helm.version());
        assertEquals("podinfo", helm.releaseName());
        assertEquals("podinfo", podinfo.namespace());
        assertFalse(helm.skipCrds());
        assertEquals((Object) new Yaml().load(STAGING_VALUES), (Object) new Yaml().load(helm.values()));
        assertEquals(List.of("staging-apps"), podinfo.dependsOn());
        assertEquals(Map.of("flux.windlass.dev/name", "podinfo", "flux.windlass.dev/folder", "staging", "flux.windlass.dev/kind", "HelmRelease"),
                podinfo.labels());
        assertEquals("clusters/staging/apps.yaml", podinfo.location().path(), "its origin is the Kustomization that builds it");
        // interval, install.strategy, upgrade.strategy and test are named as ignored, at the release's own file.
        List<String> warnings = podinfo.diagnostics().stream().map(Object::toString).toList();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("apps/base/podinfo/release.yaml:"), warnings.get(0));
        assertTrue(warnings.get(0).contains("interval") && warnings.get(0).contains("install.strategy") && warnings.get(0).contains("upgrade.strategy"),
                warnings.get(0));

        // The Kustomization's application keeps its other objects: the HelmRelease and HelmRepository are not applied.
        Application apps = s.apps().get("staging-apps");
        assertTrue(apps.valid(), apps.diagnostics().toString());
        assertEquals(List.of("Namespace/podinfo"), apps.variants().get("staging").manifests().stream()
                .map(m -> m.ref().kind() + "/" + m.ref().name()).toList());
    }

    @Test
    void theFixturesStagingPodinfoReleaseRendersWhatTheRealHelmTemplatePrints() throws Exception {
        DesiredState s = rendering.read(fixture());
        Application podinfo = s.apps().get("staging-podinfo");
        assertTrue(podinfo.valid(), podinfo.diagnostics().toString());
        Path values = Files.writeString(work.resolve("values.yaml"), STAGING_VALUES);
        String printed = run(List.of(RenderTools.fromEnvironment().helm().toString(), "template", "podinfo", "podinfo", "--repo", url,
                "--version", ">=1.0.0-alpha", "--namespace", "podinfo", "--skip-tests", "--include-crds",
                "--kube-version", RenderRequest.DEFAULT_KUBE_VERSION, "-f", values.toString()));
        Map<String, Object> expected = objects(printed);
        assertTrue(expected.containsKey("Deployment/podinfo/podinfo") && expected.containsKey("HTTPRoute/podinfo/podinfo"), expected.keySet().toString());
        Map<String, Object> applied = new TreeMap<>();
        for (Manifest m : podinfo.variants().get("staging").manifests()) {
            if (!m.implicit()) applied.put(m.ref().kind() + "/" + m.ref().namespace() + "/" + m.ref().name(), m.body());
        }
        assertEquals(expected, applied);
        assertTrue(s.diagnostics().stream().noneMatch(d -> d.isError() && d.location().path().startsWith("apps/")),
                s.diagnostics().toString());
    }

    /**
     * Objects by kind, namespace and name. Every object of this chart is namespaced: one helm prints without a namespace
     * gets the release's, as the API server gives it on install, and as Windlass writes it.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> objects(String yaml) {
        Map<String, Object> out = new TreeMap<>();
        for (Object o : new Yaml().loadAll(yaml)) {
            if (!(o instanceof Map<?, ?> m)) continue;
            Map<String, Object> meta = (Map<String, Object>) m.get("metadata");
            meta.putIfAbsent("namespace", "podinfo");
            out.put(m.get("kind") + "/" + meta.get("namespace") + "/" + meta.get("name"), m);
        }
        return out;
    }

    static List<String> errors(DesiredState s) {
        List<String> out = new ArrayList<>();
        s.diagnostics().stream().filter(Diagnostic::isError).forEach(d -> out.add(d.toString()));
        return out;
    }
}
