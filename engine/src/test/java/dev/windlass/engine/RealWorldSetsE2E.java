package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RealWorldScenario} on a sandbox cluster (client-side apply, simulated controllers). The sets with
 * CustomResourceDefinitions too big for client-side apply's last-applied copy (kube-prometheus, cert-manager) run on
 * real control planes only: the sandbox has no server-side apply.
 */
class RealWorldSetsE2E {
    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"online-boutique", "podinfo", "podinfo-database", "ingress-nginx"})
    void appliesBecomesHealthyAndThenWritesNothing(String set) throws Exception {
        RealWorldScenario.run(dir, false, set);
    }
}
