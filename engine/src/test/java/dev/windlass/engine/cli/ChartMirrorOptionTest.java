package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.render.ChartMirrors;
import dev.windlass.render.RenderAccess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --chart-mirror ORIGIN=URL}: repeatable, what the renders read; a wrong one stops the command before it starts. */
class ChartMirrorOptionTest {
    @TempDir Path dir;

    @AfterEach
    void clear() { System.clearProperty(ChartMirrors.PROPERTY); }

    private int validate(StringWriter err, String... mirrors) throws Exception {
        Files.writeString(dir.resolve("windlass.yaml"), "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec: {}\n");
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("validate", dir.toString()));
        for (String m : mirrors) args.addAll(java.util.List.of("--chart-mirror", m));
        return Main.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args.toArray(String[]::new));
    }

    @Test
    void twoMirrorsAreWhatTheRendersRead() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(0, validate(err, "oci://quay.io/jetstack=http://127.0.0.1:5000/jetstack",
                "https://stefanprodan.github.io/podinfo=https://charts.internal/podinfo"), err.toString());
        ChartMirrors mirrors = RenderAccess.fromEnvironment().mirrors();
        assertEquals(new ChartMirrors.Source("oci://127.0.0.1:5000/jetstack/charts/cert-manager", true, true),
                mirrors.of("oci://quay.io/jetstack/charts/cert-manager"));
        assertEquals("https://charts.internal/podinfo", mirrors.of("https://stefanprodan.github.io/podinfo").address());
    }

    @Test
    void aMirrorOfTheWrongKindIsRefused() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(2, validate(err, "oci://quay.io=https://mirror.example.com"));
        assertTrue(err.toString().contains("--chart-mirror oci://quay.io is an OCI registry: mirror it with oci://host/path (HTTPS) or"
                + " http://host/path (plain HTTP), not https://mirror.example.com"), err.toString());
        assertNull(System.getProperty(ChartMirrors.PROPERTY));
    }
}
