package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.IgnoreDifferences;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Argo CD's example apps, adopted with a root Application holding one Application per example folder. */
class ArgoExampleRepoTest {

    @Test
    void everyApplicationOfTheRootBecomesAnApplicationPlacedOnItsDestination() {
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of()));
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "root"), List.copyOf(s.apps().keySet()));

        Application guestbook = s.apps().get("guestbook");
        assertEquals(List.of("in-cluster"), guestbook.placement().clusterNames(), "destination.server names the Cluster annotated with it");
        assertEquals("guestbook", guestbook.namespace());
        assertEquals(null, guestbook.render(), "a plain directory is read as it is");
        assertEquals(List.of("Deployment/guestbook-ui", "Service/guestbook-ui", "Namespace/guestbook"),
                guestbook.manifests().stream().map(m -> m.ref().kind() + "/" + m.ref().name()).toList());
        assertEquals(new Application.SyncPolicy(true, true, Application.ApplyStrategy.ClientSide, false), guestbook.syncPolicy());
        assertEquals("root", guestbook.labels().get("argocd.windlass.dev/parent"));
        assertEquals("guestbook", guestbook.labels().get("argocd.windlass.dev/name"));

        Application root = s.apps().get("root");
        assertTrue(root.valid(), root.diagnostics().toString());
        assertEquals(List.of(), root.manifests(), "the root applies no Application objects (they are read, not applied), nor their namespace");

        Application kustomize = s.apps().get("kustomize-guestbook");
        assertEquals(List.of("production"), kustomize.placement().clusterNames());
        assertEquals("kustomize-guestbook", kustomize.render().kustomize());
        assertEquals(new Application.SyncPolicy(true, false, Application.ApplyStrategy.ClientSide, false), kustomize.syncPolicy());
        assertEquals("""
                namePrefix: prod-
                resources:
                - guestbook-ui-deployment.yaml
                - guestbook-ui-svc.yaml
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                images:
                - name: gcr.io/google-samples/gb-frontend
                  newTag: v6
                commonLabels:
                  team: guestbook
                """, kustomize.render().flux().files().get("kustomize-guestbook/kustomization.yaml"),
                "the kustomization as Argo CD's kustomize edit leaves it");

        Application helm = s.apps().get("helm-guestbook");
        assertEquals("helm-guestbook", helm.render().helm().chartPath());
        assertEquals("guestbook", helm.render().helm().releaseName());
        assertEquals(List.of("helm-guestbook/values-production.yaml", ".windlass/argocd/helm-guestbook/values.yaml"),
                helm.render().helm().valuesFiles(), "the values files, then the inline values, as Argo CD passes them");
        assertEquals("""
                replicaCount: 2
                service:
                  port: 8081
                image:
                  tag: '5'
                """, helm.render().flux().files().get(".windlass/argocd/helm-guestbook/values.yaml"),
                "parameters are set over the inline values, typed as helm --set types them, forceString as text");
        assertTrue(ArgoFixture.warnings(s).stream().anyMatch(w -> w.startsWith("argocd/apps/guestbook.yaml:8:12: warning: Application.spec: accepted"
                + " and ignored, since they change how Argo CD works, not what it applies: project (")), ArgoFixture.warnings(s).toString());
    }

    @Test
    void anApplicationWithoutAutomatedSyncIsHeldSuspendedAndSoAreItsChildren() {
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/root.yaml", ArgoFixture.ROOT_APP.replace(
                "  syncPolicy:\n    automated: {prune: true, selfHeal: true}\n", ""))));
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertTrue(s.apps().get("root").suspend());
        assertTrue(s.apps().get("guestbook").suspend(), "Argo CD would not update the children of a root it does not sync");
        assertTrue(ArgoFixture.warnings(s).contains("argocd/root.yaml:12:16: warning: Argo CD Application 'root' has no"
                + " spec.syncPolicy.automated, so Argo CD syncs it only when someone asks; Windlass has no manual sync, so it holds the"
                + " application (suspended: observed, never written); add syncPolicy.automated to have Windlass apply it"), ArgoFixture.warnings(s).toString());
    }

    @Test
    void ignoreDifferencesAndSyncWavesAreWindlassOwn() {
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/guestbook.yaml", ArgoFixture.GUESTBOOK + """
                  ignoreDifferences:
                    - {group: apps, kind: Deployment, jsonPointers: [/spec/replicas]}
                """, "guestbook/guestbook-ui-svc.yaml", """
                apiVersion: v1
                kind: Service
                metadata:
                  name: guestbook-ui
                  annotations: {argocd.argoproj.io/sync-wave: "2"}
                spec: {ports: [{port: 80}], selector: {app: guestbook-ui}}
                """)));
        assertEquals(List.of(), ArgoFixture.errors(s));
        Application guestbook = s.apps().get("guestbook");
        assertEquals(List.of(new IgnoreDifferences("apps", "Deployment", "", "", List.of("/spec/replicas"), List.of())),
                guestbook.syncPolicy().ignoreDifferences());
        assertEquals(2, guestbook.manifests().stream().filter(m -> m.ref().kind().equals("Service")).findFirst().orElseThrow().wave());
    }

    @Test
    void theChartThatPrintsApplicationsIsAHelmApplicationWhoseRenderIsChecked() {
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/example-apps.yaml", """
                apiVersion: argoproj.io/v1alpha1
                kind: Application
                metadata: {name: example-apps, namespace: argocd}
                spec:
                  source: {repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: apps}
                  destination: {name: in-cluster, namespace: argocd}
                  syncPolicy: {automated: {}}
                """)));
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals("apps", s.apps().get("example-apps").render().helm().chartPath());
        assertFalse(s.apps().get("example-apps").suspend());
    }
}
