package dev.windlass.policy.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.Variant;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.parse.FluxHelmReleases;
import dev.windlass.policy.parse.RenderedObjects;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.Health;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A Flux Kustomization's {@code wait: true} and {@code healthChecks} as the planner gates its dependents: infra-configs
 * depends on infra-controllers, whose build prints a HelmRelease; with {@code wait: true} infra-configs' objects are held,
 * with a typed reason naming the release's application, until that application is Healthy, and not only until
 * infra-controllers' own objects are. The renders are written here by hand (policy-eval runs no kustomize or helm):
 * the Kustomization's build is its folder's objects, the chart's is one Deployment.
 */
class FluxWaitPlanTest {
    static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    static final ObjectRef CONTROLLER = new ObjectRef("apps", "Deployment", "cert-manager", "cert-manager");
    static final ObjectRef GATEWAY = new ObjectRef("gateway.networking.k8s.io", "Gateway", "default", "eg");

    static final String CONTROLLERS = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: cert-manager}
            ---
            apiVersion: source.toolkit.fluxcd.io/v1
            kind: HelmRepository
            metadata: {name: cert-manager, namespace: cert-manager}
            spec: {url: https://charts.jetstack.io}
            ---
            apiVersion: helm.toolkit.fluxcd.io/v2
            kind: HelmRelease
            metadata: {name: cert-manager, namespace: cert-manager}
            spec:
              chart:
                spec:
                  chart: cert-manager
                  version: 1.x
                  sourceRef: {kind: HelmRepository, name: cert-manager}
            """;

    static Map<String, String> files(String controllersSpec, String configsSpec) {
        Map<String, String> files = new TreeMap<>();
        files.put("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec:\n  flux:\n    clusters:\n      - path: clusters/{cluster}\n");
        files.put("windlass/clusters.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: staging}\nspec: {connection: {sandbox: {nodes: 1}}}\n");
        files.put("clusters/staging/infrastructure.yaml", """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: infra-controllers, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./controllers
                """ + controllersSpec.indent(2) + """
                ---
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: infra-configs, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./configs
                  dependsOn: [{name: infra-controllers}]
                """ + configsSpec.indent(2));
        files.put("controllers/cert-manager.yaml", CONTROLLERS);
        files.put("configs/gateway.yaml", "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: eg, namespace: default}\n"
                + "spec: {gatewayClassName: eg}\n");
        return files;
    }

    /**
     * The repo read, and rendered as the engine would: each Kustomization's objects are its folder's (less the Flux objects
     * Windlass reads instead of applying), and the HelmRelease's application renders one Deployment.
     */
    static DesiredState rendered(Map<String, String> files) {
        List<String> inline = new ArrayList<>();
        files.forEach((p, t) -> { inline.add(p); inline.add(t); });
        DesiredState parsed = RepoParser.parse(RepoFiles.inline(inline.toArray(String[]::new)));
        assertEquals(List.of(), parsed.diagnostics().stream().filter(Diagnostic::isError).toList());
        TreeMap<String, Application> apps = new TreeMap<>();
        Application controllers = parsed.apps().get("staging-infra-controllers");
        List<Diagnostic> said = new ArrayList<>();
        List<Manifest> built = RenderedObjects.read("controllers/kustomization.yaml", CONTROLLERS, "default", said);
        apps.put(controllers.name(), render(controllers, built.stream().filter(m -> !FluxHelmReleases.taken(m)).toList()));
        FluxHelmReleases.Imported imported = FluxHelmReleases.read(controllers, built, MapSnapshot.ofStrings("c", files), files.keySet());
        assertEquals(List.of(), imported.problems());
        Application release = imported.apps().get(0);
        assertEquals("staging-cert-manager", release.name());
        apps.put(release.name(), render(release, RenderedObjects.read("Chart.yaml", """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: cert-manager, namespace: cert-manager}
                spec: {selector: {matchLabels: {app: cm}}, template: {metadata: {labels: {app: cm}}, spec: {containers: [{name: c, image: cm}]}}}
                """, "cert-manager", said)));
        Application configs = parsed.apps().get("staging-infra-configs");
        apps.put(configs.name(), render(configs, RenderedObjects.read("configs/kustomization.yaml", files.get("configs/gateway.yaml"), "default", said)));
        assertEquals(List.of(), said);
        return parsed.withApps(apps, parsed.diagnostics());
    }

    private static Application render(Application app, List<Manifest> objects) {
        return app.rendered(Map.of("staging", new Variant("default", objects, app.revision())), app.revision(), app.diagnostics());
    }

    final FakeFleet fleet = new FakeFleet(List.of("staging"));
    EngineState state = EngineState.EMPTY;

    /** One pass: planned, applied as the applier would, recorded. */
    private Plan pass(DesiredState desired) {
        Plan plan = Planner.plan(desired, fleet.observe(), state, NOW);
        ApplyResult result = fleet.apply(plan);
        state = Transition.after(state, desired, fleet.observe(), plan, result, NOW).state();
        return plan;
    }

    private static List<HoldReason> heldFor(Plan plan, String app) {
        return plan.held().stream().filter(h -> h.action().app().equals(app)).map(HeldAction::reason).distinct().toList();
    }

    private static boolean applies(Plan plan, String app, ObjectRef ref) {
        return plan.actions().stream().anyMatch(a -> a.app().equals(app) && a.object().equals(ref));
    }

    /** The chart's Deployment as the cluster reports it while it rolls out. */
    private void rollingOut() {
        LiveObject o = fleet.objects.get("staging").get(CONTROLLER);
        fleet.objects.get("staging").put(CONTROLLER, new LiveObject(CONTROLLER, o.body(), Health.Progressing, "0 of 1 replicas ready"));
    }

    private void rolledOut() {
        LiveObject o = fleet.objects.get("staging").get(CONTROLLER);
        fleet.objects.get("staging").put(CONTROLLER, new LiveObject(CONTROLLER, o.body(), Health.Healthy, ""));
    }

    @Test
    void withWaitTheDependentIsHeldUntilTheReleasesItsDependencyPrintedAreHealthy() {
        DesiredState desired = rendered(files("wait: true\n", ""));
        Plan first = pass(desired);
        assertEquals(List.of(new HoldReason.UnmetDependency("staging-infra-controllers", Health.Missing, "staging")),
                heldFor(first, "staging-infra-configs"), "first the Kustomization's own objects");

        Plan second = pass(desired);
        assertTrue(applies(second, "staging-cert-manager", CONTROLLER), "the release goes once its Kustomization's objects are Healthy");
        assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-infra-controllers",
                new HoldReason.Awaited.PrintedRelease("staging-cert-manager"), Health.Missing, "staging")), heldFor(second, "staging-infra-configs"));
        assertTrue(!applies(second, "staging-infra-configs", GATEWAY), "the Gateway waits for the chart (its CRDs, in a real cluster)");
        rollingOut();

        Plan third = pass(desired);
        assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-infra-controllers",
                new HoldReason.Awaited.PrintedRelease("staging-cert-manager"), Health.Progressing, "staging")), heldFor(third, "staging-infra-configs"));
        assertEquals("dependency staging-infra-controllers waits (wait: true) for application staging-cert-manager, which its build printed,"
                + " Progressing on staging", heldFor(third, "staging-infra-configs").get(0).text());
        rolledOut();

        Plan fourth = pass(desired);
        assertEquals(List.of(), heldFor(fourth, "staging-infra-configs"));
        assertTrue(applies(fourth, "staging-infra-configs", GATEWAY), "applied once the release is Healthy");
    }

    @Test
    void withoutWaitTheDependentWaitsForTheKustomizationsOwnObjectsOnly() {
        DesiredState desired = rendered(files("", ""));
        pass(desired);
        Plan second = pass(desired);
        assertTrue(applies(second, "staging-cert-manager", CONTROLLER));
        assertTrue(applies(second, "staging-infra-configs", GATEWAY), "wait: false (Flux's default): not held for the release");
    }

    @Test
    void aHealthCheckOnAnObjectHoldsTheDependentUntilThatObjectIsHealthyOnTheCluster() {
        DesiredState desired = rendered(files("""
                healthChecks:
                  - {apiVersion: apps/v1, kind: Deployment, name: cert-manager, namespace: cert-manager}
                """, ""));
        pass(desired);
        Plan second = pass(desired);
        assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-infra-controllers",
                new HoldReason.Awaited.CheckedObject(CONTROLLER), Health.Missing, "staging")), heldFor(second, "staging-infra-configs"));
        rollingOut();
        assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-infra-controllers",
                new HoldReason.Awaited.CheckedObject(CONTROLLER), Health.Progressing, "staging")), heldFor(pass(desired), "staging-infra-configs"));
        rolledOut();
        assertTrue(applies(pass(desired), "staging-infra-configs", GATEWAY));
    }

    @Test
    void aHealthCheckOnAHelmReleaseHoldsTheDependentUntilItsApplicationIsHealthy() {
        DesiredState desired = rendered(files("""
                healthChecks:
                  - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease, name: cert-manager, namespace: cert-manager}
                """, ""));
        pass(desired);
        Plan second = pass(desired);
        assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-infra-controllers",
                new HoldReason.Awaited.CheckedApp("staging-cert-manager"), Health.Missing, "staging")), heldFor(second, "staging-infra-configs"));
        assertTrue(applies(second, "staging-cert-manager", CONTROLLER), "the release itself is not held by its own Kustomization's checks");
        assertTrue(applies(pass(desired), "staging-infra-configs", GATEWAY));
    }

    @Test
    void anEntryNamingNothingWindlassKnowsIsAnErrorAtItThatHoldsThatKustomizationOnly() {
        DesiredState desired = rendered(files("""
                healthChecks:
                  - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease, name: cert-manager, namespace: cert-manager}
                  - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease, name: certmanager, namespace: cert-manager}
                  - {apiVersion: kustomize.toolkit.fluxcd.io/v1, kind: Kustomization, name: apps}
                  - {apiVersion: apps/v1, kind: Deployment, name: cert-manager, namespace: cert-manager}
                  - {apiVersion: apps/v1, kind: Deployment, name: cert-manager}
                """, ""));
        Map<String, List<Diagnostic>> errors = dev.windlass.policy.flux.HealthChecks.unknown(desired.apps());
        assertEquals(List.of("staging-infra-controllers"), List.copyOf(errors.keySet()));
        assertEquals(List.of(
                "clusters/staging/infrastructure.yaml:9:7: healthChecks names the HelmRelease 'certmanager', which no Kustomization of this"
                        + " cluster folder prints (there is no application staging-certmanager made from one); name a HelmRelease a"
                        + " Kustomization's build prints, or remove the entry",
                "clusters/staging/infrastructure.yaml:10:7: healthChecks names the Kustomization 'apps', which is not in this cluster folder"
                        + " (there is no application staging-apps made from one); name a Kustomization of the same folder, or remove the entry",
                "clusters/staging/infrastructure.yaml:12:7: healthChecks names Deployment flux-system/cert-manager, which no application"
                        + " applies, so Windlass cannot tell its health; name an object that a Kustomization or HelmRelease of the repo applies"
                        + " (with its namespace), or remove the entry"),
                errors.get("staging-infra-controllers").stream().map(Object::toString).toList());
    }

    @Test
    void anEntryNamingWhatDependsOnTheKustomizationIsAnError() {
        DesiredState desired = rendered(files("""
                healthChecks:
                  - {apiVersion: kustomize.toolkit.fluxcd.io/v1, kind: Kustomization, name: infra-configs}
                """, ""));
        assertEquals(List.of("clusters/staging/infrastructure.yaml:8:7: healthChecks names the Kustomization of application"
                + " staging-infra-configs, which depends on this Kustomization: it waits for this one's readiness, so this one would never"
                + " be ready; remove the entry, or the dependency"),
                dev.windlass.policy.flux.HealthChecks.unknown(desired.apps()).get("staging-infra-controllers").stream().map(Object::toString).toList());
    }
    @Test
    void whatADependentWaitsForWrittenAsPlainDependencies() {
        DesiredState waiting = rendered(files("wait: true\n", ""));
        assertEquals(List.of("staging-infra-controllers", "staging-cert-manager"),
                dev.windlass.policy.flux.WaitedFor.dependsOn(waiting.apps().get("staging-infra-configs"), waiting.apps()));
        assertEquals(List.of("staging-infra-controllers"),
                dev.windlass.policy.flux.WaitedFor.dependsOn(waiting.apps().get("staging-cert-manager"), waiting.apps()),
                "the release printed by the Kustomization waits for its objects only");
        DesiredState not = rendered(files("", ""));
        assertEquals(List.of("staging-infra-controllers"),
                dev.windlass.policy.flux.WaitedFor.dependsOn(not.apps().get("staging-infra-configs"), not.apps()));
    }
}
