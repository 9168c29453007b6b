package dev.windlass.bench;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The config repo of a synthetic fleet, as files: one Settings, one Cluster per cluster (label {@code env: bench}),
 * and per application an {@code app.yaml} selecting every cluster plus one manifest file per object. The objects
 * are what a small web service ships: ServiceAccount, ConfigMap, Secret, Deployment and Service, then more
 * ConfigMaps when an app has more than five objects.
 */
public final class SyntheticRepo {
    private final FleetShape shape;
    private final Function<String, String> connection;
    private final int statusHistoryLimit;

    /** @param connection the YAML flow mapping under {@code spec.connection}, given the cluster's name */
    public SyntheticRepo(FleetShape shape, Function<String, String> connection) {
        this(shape, connection, dev.windlass.policy.model.Settings.DEFAULT_STATUS_HISTORY_LIMIT);
    }

    /** @param statusHistoryLimit written to {@code windlass.yaml} as {@code spec.statusHistoryLimit} */
    public SyntheticRepo(FleetShape shape, Function<String, String> connection, int statusHistoryLimit) {
        this.shape = shape;
        this.connection = connection;
        this.statusHistoryLimit = statusHistoryLimit;
    }

    public FleetShape shape() { return shape; }

    public static String app(int i) { return String.format("app-%04d", i); }

    public static String cluster(int i) { return String.format("c-%02d", i); }

    /** Every file of the repo, path to content. */
    public SortedMap<String, byte[]> files() {
        SortedMap<String, byte[]> files = new TreeMap<>();
        put(files, "windlass.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Settings
                metadata: {name: windlass}
                spec: {statusBranch: windlass/status, interval: 30s, statusHistoryLimit: %d}
                """.formatted(statusHistoryLimit));
        for (int c = 0; c < shape.clusters(); c++) {
            String name = cluster(c);
            put(files, "clusters/" + name + ".yaml", """
                    apiVersion: windlass.dev/v1alpha1
                    kind: Cluster
                    metadata:
                      name: %s
                      labels: {env: bench, zone: z%d}
                    spec:
                      connection: %s
                    """.formatted(name, c % 3, connection.apply(name)));
        }
        for (int a = 0; a < shape.apps(); a++) files.putAll(appFiles(a, 0));
        return files;
    }

    /** The files of one application; {@code generation} changes the ConfigMap's data, and only that. */
    public Map<String, byte[]> appFiles(int index, int generation) {
        String app = app(index);
        SortedMap<String, byte[]> files = new TreeMap<>();
        String dir = "apps/" + app + "/";
        put(files, dir + "app.yaml", """
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
                """.formatted(app, index % 10, app));
        for (int o = 0; o < shape.objectsPerApp(); o++) {
            put(files, dir + "manifests/" + objectFile(o), object(app, o, generation));
        }
        return files;
    }

    /** The one file a one-file change edits: the app's ConfigMap. */
    public String configMapPath(int index) {
        return "apps/" + app(index) + "/manifests/" + objectFile(Math.min(1, shape.objectsPerApp() - 1));
    }

    public byte[] configMap(int index, int generation) {
        return object(app(index), Math.min(1, shape.objectsPerApp() - 1), generation).getBytes(StandardCharsets.UTF_8);
    }

    private static String objectFile(int o) {
        return switch (o) {
            case 0 -> "serviceaccount.yaml";
            case 1 -> "configmap.yaml";
            case 2 -> "secret.yaml";
            case 3 -> "deployment.yaml";
            case 4 -> "service.yaml";
            default -> "extra-config-" + o + ".yaml";
        };
    }

    private static String object(String app, int o, int generation) {
        return switch (o) {
            case 0 -> """
                    apiVersion: v1
                    kind: ServiceAccount
                    metadata:
                      name: %s
                      labels: {app: %s}
                    """.formatted(app, app);
            case 1 -> """
                    apiVersion: v1
                    kind: ConfigMap
                    metadata:
                      name: %s-config
                      labels: {app: %s}
                    data:
                      LOG_LEVEL: info
                      FEATURE_FLAGS: "checkout,recommendations"
                      GENERATION: "%d"
                    """.formatted(app, app, generation);
            case 2 -> """
                    apiVersion: v1
                    kind: Secret
                    metadata:
                      name: %s-credentials
                      labels: {app: %s}
                    type: Opaque
                    stringData:
                      username: %s
                      password: not-a-real-password
                    """.formatted(app, app, app);
            case 3 -> """
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata:
                      name: %s
                      labels: {app: %s}
                    spec:
                      replicas: 1
                      selector:
                        matchLabels: {app: %s}
                      template:
                        metadata:
                          labels: {app: %s}
                        spec:
                          serviceAccountName: %s
                          securityContext: {runAsNonRoot: true, runAsUser: 1000}
                          containers:
                          - name: server
                            image: registry.example.com/%s:v1.4.2
                            ports:
                            - containerPort: 8080
                            envFrom:
                            - configMapRef: {name: %s-config}
                            - secretRef: {name: %s-credentials}
                            readinessProbe:
                              httpGet: {path: /healthz, port: 8080}
                              periodSeconds: 5
                            livenessProbe:
                              httpGet: {path: /healthz, port: 8080}
                            resources:
                              requests: {cpu: 100m, memory: 64Mi}
                              limits: {cpu: 200m, memory: 128Mi}
                    """.formatted(app, app, app, app, app, app, app, app);
            case 4 -> """
                    apiVersion: v1
                    kind: Service
                    metadata:
                      name: %s
                      labels: {app: %s}
                    spec:
                      type: ClusterIP
                      selector: {app: %s}
                      ports:
                      - {name: http, port: 80, targetPort: 8080}
                    """.formatted(app, app, app);
            default -> """
                    apiVersion: v1
                    kind: ConfigMap
                    metadata:
                      name: %s-extra-%d
                      labels: {app: %s}
                    data:
                      index: "%d"
                    """.formatted(app, o, app, o);
        };
    }

    private static void put(Map<String, byte[]> files, String path, String content) {
        files.put(path, content.getBytes(StandardCharsets.UTF_8));
    }
}
