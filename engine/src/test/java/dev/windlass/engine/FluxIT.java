package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FluxE2E}'s repo laid out for Flux, on two real control planes (kube-apiserver, controller-manager, scheduler,
 * kwok nodes): each cluster gets its Kustomizations' objects as Flux builds them, the Deployments roll out, and three
 * idle passes make no write, as the API servers count them.
 */
class FluxIT {
    @TempDir Path dir;

    @Test
    void aFluxRepoIsReconciledOnRealControlPlanesAndThenLeftAlone() throws Exception {
        FluxE2E.reconciledThenLeftAlone(dir, true);
    }
}
