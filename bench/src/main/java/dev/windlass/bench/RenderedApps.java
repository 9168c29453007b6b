package dev.windlass.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * The files of the {@link Workload#RENDERED} fleet: a shared Kustomize base and a shared Helm chart, and per application
 * either an overlay of the base (even-numbered apps) or a values file for the chart (odd-numbered ones). Every
 * application renders the same four objects, named like the one-object-per-file fleets: ServiceAccount, ConfigMap
 * {@code <app>-config} (carrying the generation a one-file change writes), Deployment and Service.
 */
final class RenderedApps {
    private RenderedApps() {}

    /** The base and the chart, shared by every application. */
    static Map<String, String> shared() {
        Map<String, String> files = new TreeMap<>();
        files.put("bases/web/kustomization.yaml", """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources: [serviceaccount.yaml, deployment.yaml, service.yaml]
                """);
        files.put("bases/web/serviceaccount.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: web}\n");
        files.put("bases/web/deployment.yaml", deployment("web", "web", "1"));
        files.put("bases/web/service.yaml", service("web", "web"));
        files.put("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n");
        files.put("charts/web/values.yaml", "replicas: 1\ngeneration: 0\ncluster: none\n");
        files.put("charts/web/templates/serviceaccount.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: {{ .Release.Name }}}\n");
        files.put("charts/web/templates/configmap.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: {{ .Release.Name }}-config
                  labels: {app: {{ .Release.Name }}}
                data:
                  CLUSTER: {{ .Values.cluster | quote }}
                  GENERATION: {{ .Values.generation | quote }}
                """);
        files.put("charts/web/templates/deployment.yaml", deployment("{{ .Release.Name }}", "{{ .Release.Name }}", "{{ .Values.replicas }}"));
        files.put("charts/web/templates/service.yaml", service("{{ .Release.Name }}", "{{ .Release.Name }}"));
        return files;
    }

    /** One application's files; {@code generation} changes the file {@link #editedPath} names, and only that. */
    static Map<String, String> of(int index, String app, int generation) {
        Map<String, String> files = new TreeMap<>();
        String dir = "apps/" + app + "/";
        boolean kustomize = index % 2 == 0;
        files.put(dir + "app.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata:
                  name: %s
                  labels: {team: t%d}
                spec:
                  namespace: %s
                  placement:
                    clusterSelector: {matchLabels: {env: bench}}
                  syncPolicy: {prune: true, selfHeal: true}
                  source:
                %s""".formatted(app, index % 10, app, kustomize
                ? "    path: " + dir + "kustomize\n"
                : "    helm:\n      chart: charts/web\n      valuesFiles: [" + dir + "values.yaml]\n      values: {cluster: \"{{ .cluster.name }}\"}\n"));
        if (kustomize) {
            files.put(dir + "kustomize/kustomization.yaml", """
                    apiVersion: kustomize.config.k8s.io/v1beta1
                    kind: Kustomization
                    namePrefix: %s-
                    resources: [../../../bases/web, config.yaml]
                    """.formatted(app));
            files.put(dir + "kustomize/config.yaml", """
                    apiVersion: v1
                    kind: ConfigMap
                    metadata:
                      name: config
                      labels: {app: web}
                    data:
                      GENERATION: "%d"
                    """.formatted(generation));
        } else {
            files.put(dir + "values.yaml", "generation: %d\n".formatted(generation));
        }
        return files;
    }

    /** The file a one-file change edits: the overlay's ConfigMap, or the app's values file. */
    static String editedPath(int index, String app) {
        return "apps/" + app + "/" + (index % 2 == 0 ? "kustomize/config.yaml" : "values.yaml");
    }

    private static String deployment(String name, String app, String replicas) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                  labels: {app: %s}
                spec:
                  replicas: %s
                  selector:
                    matchLabels: {app: %s}
                  template:
                    metadata:
                      labels: {app: %s}
                    spec:
                      serviceAccountName: %s
                      containers:
                      - name: server
                        image: registry.example.com/web:v1.4.2
                        ports:
                        - containerPort: 8080
                """.formatted(name, app, replicas, app, app, name);
    }

    private static String service(String name, String app) {
        return """
                apiVersion: v1
                kind: Service
                metadata:
                  name: %s
                  labels: {app: %s}
                spec:
                  selector: {app: %s}
                  ports:
                  - port: 80
                    targetPort: 8080
                """.formatted(name, app, app);
    }
}
