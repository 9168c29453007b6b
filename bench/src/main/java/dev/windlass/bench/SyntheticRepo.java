package dev.windlass.bench;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The config repo of a synthetic fleet, as files: one Settings, one Cluster per cluster (label {@code env: bench}),
 * and per application an {@code app.yaml} selecting every cluster plus one manifest file per object. The objects
 * are the {@link Workload}'s: by default what a small web service ships (ServiceAccount, ConfigMap, Secret, Deployment
 * and Service, then more ConfigMaps when an app has more than five objects); with {@link Workload#FLUX_BENCHMARK} the
 * shape of a widely published GitOps benchmark (a Deployment scaled to 0, a ServiceAccount, a Service, an Ingress).
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
        if (shape.workload() == Workload.RENDERED) RenderedApps.shared().forEach((path, text) -> put(files, path, text));
        for (int a = 0; a < shape.apps(); a++) files.putAll(appFiles(a, 0));
        return files;
    }

    /** The files of one application; {@code generation} changes the edited object (see {@link #editedPath}), and only that. */
    public Map<String, byte[]> appFiles(int index, int generation) {
        String app = app(index);
        SortedMap<String, byte[]> files = new TreeMap<>();
        String dir = "apps/" + app + "/";
        if (shape.workload() == Workload.RENDERED) {
            RenderedApps.of(index, app, generation).forEach((path, text) -> put(files, path, text));
            return files;
        }
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

    /** The one object a one-file change edits: the app's ConfigMap, or its Service in the published shape. */
    private int edited() { return shape.workload() == Workload.FLUX_BENCHMARK ? 2 : Math.min(1, shape.objectsPerApp() - 1); }


    /** The one file a one-file change edits (see {@link #editedKind()}). */
    public String editedPath(int index) {
        if (shape.workload() == Workload.RENDERED) return RenderedApps.editedPath(index, app(index));
        return "apps/" + app(index) + "/manifests/" + objectFile(edited());
    }

    /** That file with {@code generation} written into it, and nothing else changed. */
    public byte[] edited(int index, int generation) {
        if (shape.workload() == Workload.RENDERED) {
            return RenderedApps.of(index, app(index), generation).get(editedPath(index)).getBytes(StandardCharsets.UTF_8);
        }
        return object(app(index), edited(), generation).getBytes(StandardCharsets.UTF_8);
    }

    /** The kind of the edited object, all in the core group ({@code v1}): ConfigMap, or Service in the published shape. */
    public String editedKind() {
        if (shape.workload() == Workload.FLUX_BENCHMARK) return "Service";
        return shape.objectsPerApp() == 1 ? "ServiceAccount" : "ConfigMap"; // an app of one object has nothing else to edit
    }

    /** The name of the edited object of app {@code index}, in the app's namespace (named like the app). */
    public String editedName(int index) {
        return shape.workload() == Workload.FLUX_BENCHMARK || shape.objectsPerApp() == 1 ? app(index) : app(index) + "-config";
    }

    /** The generation a live copy of the edited object carries, or null. */
    public String generationOf(io.fabric8.kubernetes.api.model.GenericKubernetesResource live) {
        if (shape.workload() == Workload.FLUX_BENCHMARK) {
            Map<String, String> annotations = live.getMetadata().getAnnotations();
            return annotations == null ? null : annotations.get(GENERATION_ANNOTATION);
        }
        return live.getAdditionalProperties().get("data") instanceof Map<?, ?> data && data.get("GENERATION") != null
                ? data.get("GENERATION").toString() : null;
    }

    private static final String GENERATION_ANNOTATION = "bench.windlass.dev/generation";

    private String objectFile(int o) {
        if (shape.workload() == Workload.FLUX_BENCHMARK) {
            return switch (o) {
                case 0 -> "deployment.yaml";
                case 1 -> "serviceaccount.yaml";
                case 2 -> "service.yaml";
                default -> "ingress.yaml";
            };
        }
        return webServiceFile(o);
    }

    private String object(String app, int o, int generation) {
        return shape.workload() == Workload.FLUX_BENCHMARK ? publishedShape(app, o, generation) : webService(app, o, generation);
    }

    /**
     * The published benchmark's objects: a Deployment scaled to 0 (so no Pods run and its controller still makes it
     * Available), a ServiceAccount, a ClusterIP Service and an Ingress to it.
     */
    private static String publishedShape(String app, int o, int generation) {
        return switch (o) {
            case 0 -> deployment(app, 0, """
                          containers:
                          - name: server
                            image: registry.example.com/%s:v1.4.2
                            ports:
                            - containerPort: 8080
                    """.formatted(app));
            case 1 -> serviceAccount(app);
            case 2 -> service(app, "  annotations: {%s: \"%d\"}\n".formatted(GENERATION_ANNOTATION, generation));
            default -> """
                    apiVersion: networking.k8s.io/v1
                    kind: Ingress
                    metadata:
                      name: %s
                      labels: {app: %s}
                    spec:
                      rules:
                      - host: %s.bench.example.com
                        http:
                          paths:
                          - path: /
                            pathType: Prefix
                            backend:
                              service:
                                name: %s
                                port: {number: 80}
                    """.formatted(app, app, app, app);
        };
    }

    /** An app's Secret (the web-service workload's third object), with {@code password}. */
    static String secret(String app, String password) {
        return """
                apiVersion: v1
                kind: Secret
                metadata:
                  name: %s-credentials
                  labels: {app: %s}
                type: Opaque
                stringData:
                  username: %s
                  password: %s
                """.formatted(app, app, app, password);
    }

    private static String webServiceFile(int o) {
        return switch (o) {
            case 0 -> "serviceaccount.yaml";
            case 1 -> "configmap.yaml";
            case 2 -> "secret.yaml";
            case 3 -> "deployment.yaml";
            case 4 -> "service.yaml";
            default -> "extra-config-" + o + ".yaml";
        };
    }

    private static String webService(String app, int o, int generation) {
        return switch (o) {
            case 0 -> serviceAccount(app);
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
            case 2 -> secret(app, "not-a-real-password");
            case 3 -> deployment(app, 1, """
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
                    """.formatted(app, app, app));
            case 4 -> service(app, "");
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

    /** A Deployment named and labelled like the app, running as its ServiceAccount; {@code pod} goes on after that. */
    private static String deployment(String app, int replicas, String pod) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                  labels: {app: %s}
                spec:
                  replicas: %d
                  selector:
                    matchLabels: {app: %s}
                  template:
                    metadata:
                      labels: {app: %s}
                    spec:
                      serviceAccountName: %s
                """.formatted(app, app, replicas, app, app, app) + pod;
    }

    private static String serviceAccount(String app) {
        return """
                apiVersion: v1
                kind: ServiceAccount
                metadata:
                  name: %s
                  labels: {app: %s}
                """.formatted(app, app);
    }

    /** A ClusterIP Service to the app's port 8080; {@code metadata} adds lines under its metadata. */
    private static String service(String app, String metadata) {
        return """
                apiVersion: v1
                kind: Service
                metadata:
                  name: %s
                  labels: {app: %s}
                %sspec:
                  type: ClusterIP
                  selector: {app: %s}
                  ports:
                  - {name: http, port: 80, targetPort: 8080}
                """.formatted(app, app, metadata, app);
    }

    private static void put(Map<String, byte[]> files, String path, String content) {
        files.put(path, content.getBytes(StandardCharsets.UTF_8));
    }
}
