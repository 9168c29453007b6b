package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RealWorldScenario} on a real control plane (API server, controller-manager, scheduler, kwok nodes) reached
 * through a kubeconfig with server-side apply: health comes from the real controllers, writes are counted by the API
 * server. kube-prometheus brings CustomResourceDefinitions up to 810 KB and {@code *List} kinds, ingress-nginx zero
 * and false fields the server leaves out.
 */
class RealWorldSetsIT {
    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"online-boutique", "podinfo", "podinfo-database", "ingress-nginx", "kube-prometheus", "cert-manager-crds"})
    void appliesBecomesHealthyAndThenWritesNothing(String set) throws Exception {
        RealWorldScenario.run(dir, true, set);
    }
}
