package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ArgoE2E}'s Argo CD example apps and app of apps, on three real control planes (kube-apiserver, controller-manager,
 * scheduler, kwok nodes): each Application's objects land on its destination as Argo CD renders them, the Deployments roll
 * out, three idle passes make no write as the API servers count them, then a new image rolls out and a removed child's
 * objects are pruned.
 */
class ArgoIT {
    @TempDir Path dir;

    @Test
    void argoCdApplicationsAreReconciledOnRealControlPlanesAndThenLeftAlone() throws Exception {
        ArgoE2E.reconciledThenLeftAlone(dir, true);
    }
}
