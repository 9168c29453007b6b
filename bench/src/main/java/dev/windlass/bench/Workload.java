package dev.windlass.bench;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What each synthetic application ships. */
public enum Workload {
    /**
     * A small web service: ServiceAccount, ConfigMap, Secret, a Deployment of one replica (probes, resources,
     * envFrom) and a Service; more ConfigMaps past five objects.
     */
    WEB_SERVICE("web-service", 1),
    /**
     * The shape of a widely published GitOps benchmark, so that its table can be compared: a Deployment scaled to 0,
     * a ServiceAccount, a Service and an Ingress; always four objects, no Pods.
     */
    FLUX_BENCHMARK("flux-benchmark", 0),
    /**
     * Applications as real repos hold them, rendered by the real tools: even-numbered ones a Kustomize overlay of a
     * shared base (ServiceAccount, Deployment, Service) plus the app's own ConfigMap, odd-numbered ones a shared Helm
     * chart with the app's values file and the cluster's name filled into its values (one render per cluster); always
     * four objects.
     */
    RENDERED("rendered", 1);

    private final String cli;
    private final int replicas;

    Workload(String cli, int replicas) {
        this.cli = cli;
        this.replicas = replicas;
    }

    /** The value of {@code --workload}. */
    public String cli() { return cli; }

    /** Pods each application's Deployment asks for. */
    public int replicas() { return replicas; }

    /** Objects per application this workload allows: four for the published shape, one or more otherwise. */
    public boolean allows(int objectsPerApp) { return this == WEB_SERVICE ? objectsPerApp >= 1 : objectsPerApp == 4; }

    /** Objects per application when {@code --objects-per-app} is not given. */
    public int defaultObjects() { return this == WEB_SERVICE ? 5 : 4; }

    public static Workload of(String cli) {
        return Arrays.stream(values()).filter(w -> w.cli.equals(cli)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no workload " + cli + "; one of " + Arrays.stream(values()).map(Workload::cli).collect(Collectors.joining(", "))));
    }
}
