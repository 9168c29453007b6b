package dev.windlass.bench;

import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The peer: the GitOps toolkit's source-controller and kustomize-controller, built pinned by
 * {@code scripts/flux-controllers.sh}, run on this machine against the control plane with its published benchmark's
 * setting ({@code --concurrent=20}), each as an API user of its own. Its objects are installed by the admin before it
 * starts, as a bootstrap would: one {@code Kustomization} per app, from one {@code GitRepository} for the whole repo or
 * one per app ({@code perAppSource}, each ignoring every folder but its app's). A push is told to it as its webhook
 * receiver tells it: an annotation asking every {@code GitRepository} to reconcile now.
 */
final class FluxControllers implements Contender {
    static final String NAMESPACE = "flux-system";
    static final String SOURCE_USER = "user-2";
    static final String KUSTOMIZE_USER = "user-3";
    /** How often each object is reconciled without a push: the published examples' setting for sources. */
    static final String INTERVAL = "10m";
    private static final ResourceDefinitionContext GIT_REPOSITORY = new ResourceDefinitionContext.Builder()
            .withGroup("source.toolkit.fluxcd.io").withVersion("v1").withKind("GitRepository").withPlural("gitrepositories").withNamespaced(true).build();
    private static final ResourceDefinitionContext KUSTOMIZATION = new ResourceDefinitionContext.Builder()
            .withGroup("kustomize.toolkit.fluxcd.io").withVersion("v1").withKind("Kustomization").withPlural("kustomizations").withNamespaced(true).build();

    private final Path binaries;
    private final boolean perAppSource;

    /** @param binaries what {@code scripts/flux-controllers.sh} printed: both controllers and {@code crds/} */
    FluxControllers(Path binaries, boolean perAppSource) {
        this.binaries = binaries;
        this.perAppSource = perAppSource;
    }

    /** Builds the controllers (the first time) through the project's script, and returns where they are. */
    static Path build(Path home) throws IOException, InterruptedException {
        Path script = home.resolve("scripts/flux-controllers.sh");
        Process p = new ProcessBuilder(script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        if (p.waitFor() != 0 || out.isEmpty()) throw new IOException(script + " failed (its messages are above)");
        return Path.of(out.lines().reduce((a, b) -> b).orElseThrow());
    }

    @Override public String name() { return perAppSource ? "Flux, a source per app" : "Flux, one source"; }

    @Override public List<String> users() { return List.of(SOURCE_USER, KUSTOMIZE_USER); }

    /** The same manifests as Windlass's repo, and per app a kustomization that puts them in the app's own namespace. */
    @Override public SortedMap<String, byte[]> files(SyntheticRepo repo) {
        SortedMap<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < repo.shape().apps(); i++) {
            String app = SyntheticRepo.app(i);
            List<String> resources = new ArrayList<>(List.of("namespace.yaml"));
            for (Map.Entry<String, byte[]> e : repo.appFiles(i, 0).entrySet()) {
                if (!e.getKey().contains("/manifests/")) continue;
                files.put(e.getKey(), e.getValue());
                resources.add("../../" + e.getKey());
            }
            files.put("flux/" + app + "/namespace.yaml", ("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + app + "}\n").getBytes(StandardCharsets.UTF_8));
            files.put("flux/" + app + "/kustomization.yaml", ("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: " + app
                    + "\nresources:\n" + String.join("", resources.stream().map(r -> "  - " + r + "\n").toList())).getBytes(StandardCharsets.UTF_8));
        }
        return files;
    }

    @Override public void install(KubernetesClient admin, SyntheticRepo repo, String repoUrl) throws IOException {
        try (Stream<Path> crds = Files.list(binaries.resolve("crds"))) {
            for (Path crd : crds.sorted().toList()) {
                try (InputStream in = Files.newInputStream(crd)) {
                    admin.load(in).serverSideApply();
                }
            }
        }
        admin.apiextensions().v1().customResourceDefinitions().withName("kustomizations.kustomize.toolkit.fluxcd.io")
                .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                        .anyMatch(x -> x.getType().equals("Established") && x.getStatus().equals("True")), 60, java.util.concurrent.TimeUnit.SECONDS);
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).serverSideApply();
        if (!perAppSource) admin.genericKubernetesResources(GIT_REPOSITORY).inNamespace(NAMESPACE).resource(source("fleet", repoUrl, null)).create();
        for (int i = 0; i < repo.shape().apps(); i++) {
            String app = SyntheticRepo.app(i);
            if (perAppSource) {
                admin.genericKubernetesResources(GIT_REPOSITORY).inNamespace(NAMESPACE)
                        .resource(source(app, repoUrl, "/*\n!/flux/" + app + "/\n!/apps/" + app + "/\n")).create();
            }
            admin.genericKubernetesResources(KUSTOMIZATION).inNamespace(NAMESPACE).resource(kustomization(app, perAppSource ? app : "fleet")).create();
        }
    }

    private static GenericKubernetesResource source(String name, String url, String ignore) {
        Map<String, Object> spec = new TreeMap<>(Map.of("interval", INTERVAL, "url", url, "ref", Map.of("branch", "main")));
        if (ignore != null) spec.put("ignore", ignore);
        return resource("source.toolkit.fluxcd.io/v1", "GitRepository", name, spec);
    }

    private static GenericKubernetesResource kustomization(String app, String source) {
        return resource("kustomize.toolkit.fluxcd.io/v1", "Kustomization", app, Map.of("interval", INTERVAL, "path", "./flux/" + app, "prune", true,
                "timeout", "5m", "sourceRef", Map.of("kind", "GitRepository", "name", source)));
    }

    private static GenericKubernetesResource resource(String apiVersion, String kind, String name, Map<String, Object> spec) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(apiVersion);
        r.setKind(kind);
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        r.setAdditionalProperty("spec", spec);
        return r;
    }

    @Override public List<Process> start(Path dir, KubeCluster cluster, String repoUrl) throws IOException {
        int storage = freePort();
        Process source = start(dir, cluster, SOURCE_USER, "source-controller", List.of("--storage-path=" + Files.createDirectories(dir.resolve("storage")),
                "--storage-addr=127.0.0.1:" + storage, "--storage-adv-addr=127.0.0.1:" + storage));
        Process kustomize = start(dir, cluster, KUSTOMIZE_USER, "kustomize-controller", List.of("--no-remote-bases=true"));
        return List.of(source, kustomize);
    }

    private Process start(Path dir, KubeCluster cluster, String user, String name, List<String> own) throws IOException {
        Path kubeconfig = cluster.api().kubeconfig(dir.resolve(name + ".kubeconfig"), user);
        List<String> command = new ArrayList<>(List.of(binaries.resolve(name).toString(), "--metrics-addr=127.0.0.1:" + freePort(), "--health-addr=127.0.0.1:" + freePort(), "--enable-leader-election=false",
                "--watch-all-namespaces=true", "--concurrent=20", "--log-level=info", "--events-addr="));
        command.addAll(own);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile());
        builder.environment().put("RUNTIME_NAMESPACE", NAMESPACE);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        return builder.start();
    }

    @Override public void pushed(KubernetesClient admin, SyntheticRepo repo) {
        String now = Instant.now().toString();
        for (GenericKubernetesResource source : admin.genericKubernetesResources(GIT_REPOSITORY).inNamespace(NAMESPACE).list().getItems()) {
            admin.genericKubernetesResources(GIT_REPOSITORY).inNamespace(NAMESPACE).withName(source.getMetadata().getName())
                    .edit(r -> {
                        Map<String, String> annotations = new TreeMap<>(r.getMetadata().getAnnotations() == null ? Map.of() : r.getMetadata().getAnnotations());
                        annotations.put("reconcile.fluxcd.io/requestedAt", now);
                        r.getMetadata().setAnnotations(annotations);
                        return r;
                    });
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
