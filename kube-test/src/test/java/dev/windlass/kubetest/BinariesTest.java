package dev.windlass.kubetest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without binaries, starting fails and says what to run, instead of tests being skipped silently. */
class BinariesTest {

    @Test void missingBinariesNameTheScript(@TempDir Path empty) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> KubeApiServer.start(new Binaries(empty)));

        assertEquals("kube-apiserver not found in " + empty + "; run scripts/kube-test-env.sh (the first build takes about 10 min)",
                e.getMessage());
    }

    @Test void aControlPlaneNeedsTheControllersAndKwokToo(@TempDir Path dir) throws Exception {
        for (String present : new String[] {"kube-apiserver", "etcd"}) {
            Path binary = java.nio.file.Files.createFile(dir.resolve(present));
            binary.toFile().setExecutable(true);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> KubeCluster.start(new Binaries(dir), java.util.List.of()));

        assertEquals("kube-controller-manager not found in " + dir + "; run scripts/kube-test-env.sh (the first build takes about 10 min)",
                e.getMessage());
    }
}
