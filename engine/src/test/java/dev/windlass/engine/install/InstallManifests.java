package dev.windlass.engine.install;

import dev.windlass.render.RenderTools;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The README's install steps as a test runs them: {@code kustomize build deploy/} with the project's pinned kustomize,
 * then every object applied server-side ({@code kubectl apply --server-side}), in the order kustomize printed them.
 */
final class InstallManifests {
    /** The install base, from the engine module's directory (where the tests run). */
    static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();

    private InstallManifests() {}

    /** What {@code kustomize build dir} prints. */
    static String build(Path dir) throws IOException, InterruptedException {
        Path kustomize = RenderTools.fromEnvironment().kustomize();
        Process p = new ProcessBuilder(kustomize.toString(), "build", dir.toString()).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("kustomize build " + dir + " failed: " + err);
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    /** Applies every object of {@code yaml} server-side as the field manager {@code kubectl}; returns them as applied. */
    static List<HasMetadata> applyServerSide(KubernetesClient client, String yaml) {
        List<HasMetadata> objects = client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
        return objects.stream()
                .map(o -> client.resource(o).fieldManager("kubectl").forceConflicts().serverSideApply())
                .toList();
    }
}
