package dev.windlass.policy.parse;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.source.MapSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Argo CD's example apps (test-fixtures), as published, with what a team adds to adopt them: windlass.yaml naming the
 * repo's address, two clusters, and the Argo CD Applications for the example folders, held by one root Application (app
 * of apps) in {@code argocd/}.
 */
public final class ArgoFixture {
    public static final Path ROOT = Path.of("..", "test-fixtures", "real-world", "argocd-example-apps");
    public static final String REPO_URL = "https://github.com/argoproj/argocd-example-apps.git";

    public static final String WINDLASS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              argocd:
                repoURLs: [https://github.com/argoproj/argocd-example-apps.git]
            """;
    public static final String CLUSTERS = """
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
    public static final String ROOT_APP = """
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
    public static final String GUESTBOOK = """
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
    public static final String KUSTOMIZE_GUESTBOOK = """
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
    public static final String HELM_GUESTBOOK = """
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

    private ArgoFixture() {}

    /** The fixture's files, with the files a team adds, and {@code extra} (path, text) written over or added. */
    public static MapSnapshot repo(Map<String, String> extra) {
        MapSnapshot fixture = RepoFiles.folder(ROOT);
        Map<String, byte[]> files = new TreeMap<>();
        fixture.files().keySet().forEach(p -> files.put(p, fixture.read(p)));
        adoption().forEach((p, text) -> files.put(p, text.getBytes(StandardCharsets.UTF_8)));
        extra.forEach((p, text) -> files.put(p, text.getBytes(StandardCharsets.UTF_8)));
        return new MapSnapshot("0000000000000000000000000000000000000004", files);
    }

    /** What a team adds to the published repo to adopt it, by path. */
    public static Map<String, String> adoption() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("windlass.yaml", WINDLASS);
        files.put("windlass/clusters.yaml", CLUSTERS);
        files.put("argocd/root.yaml", ROOT_APP);
        files.put("argocd/apps/guestbook.yaml", GUESTBOOK);
        files.put("argocd/apps/kustomize-guestbook.yaml", KUSTOMIZE_GUESTBOOK);
        files.put("argocd/apps/helm-guestbook.yaml", HELM_GUESTBOOK);
        return files;
    }

    public static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    public static List<String> warnings(DesiredState s) { return s.diagnostics().stream().filter(d -> !d.isError()).map(Object::toString).toList(); }
}
