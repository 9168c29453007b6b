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

        assertEquals("kube-apiserver not found in " + empty + "; run scripts/kube-test-env.sh (first build takes ~10 min)",
                e.getMessage());
    }
}
