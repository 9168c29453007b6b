package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.TestFleet;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands find the status branch the repository's Settings name, without being told. */
class StatusBranchSettingE2E {
    @TempDir Path dir;

    @Test void theStatusBranchComesFromTheSettingsWhenNotGiven() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("fleet with its own status branch", c -> c
                    .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nmetadata: {name: windlass}\nspec: {statusBranch: fleet/status}\n")
                    .write("clusters/eu-1.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: eu-1}\nspec: {connection: {sandbox: {nodes: 1}}}\n")
                    .write("apps/web/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  placement: {clusterNames: [eu-1]}\n")
                    .write("apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n"));
            try (Engine engine = new Engine(Mirror.open(dir.resolve("engine-2"), GitRemote.anonymous(fleet.origin.toString())), "main",
                    "fleet/status", fleet.sandbox, fleet.clock)) {
                engine.reconciler().reconcile();
            }
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "status", "--repo", fleet.origin.toString(),
                    "--workdir", dir.resolve("cli").toString());
            assertEquals(0, code, err.toString());
            assertTrue(out.toString().contains("web"), out.toString());
        }
    }
}
