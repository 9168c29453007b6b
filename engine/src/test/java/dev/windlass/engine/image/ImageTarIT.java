package dev.windlass.engine.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine image as the build leaves it ({@code jib:buildTar}, engine/target/windlass-image.tar): a scratch base with
 * no shell, a non-root numeric user, the jlinked runtime as its entrypoint, CA certificates, the render tools, and
 * Jib's layers of jars. Its layers, unpacked in order as a container runtime would, start {@code windlass --version}
 * with the runtime they carry.
 */
class ImageTarIT {
    static final Path TAR = Path.of("target", "windlass-image.tar");

    @TempDir Path dir;
    final ObjectMapper json = new ObjectMapper();

    @Test
    void theImageRunsAsANonRootUserFromItsOwnRuntimeAndStartsWindlass() throws Exception {
        assertTrue(Files.exists(TAR), "built at package by jib:buildTar (skipped with -Djib.skip): " + TAR.toAbsolutePath());
        Path image = dir.resolve("image");
        Files.createDirectories(image);
        run(dir, "tar", "-xf", TAR.toAbsolutePath().toString(), "-C", image.toString());

        JsonNode manifest = json.readTree(image.resolve("manifest.json").toFile()).get(0);
        JsonNode config = json.readTree(image.resolve(manifest.get("Config").asText()).toFile());
        JsonNode c = config.get("config");
        assertEquals(List.of("/opt/java/bin/java", "--sun-misc-unsafe-memory-access=allow", "-XX:+UseCompactObjectHeaders", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xms16m", "-XX:MaxNewSize=24m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30", "-XX:+UseStringDeduplication", "-Dio.netty.allocator.numDirectArenas=1", "-cp", "@/app/jib-classpath-file", "dev.windlass.engine.cli.Main"),
                strings(c.get("Entrypoint")));
        assertEquals("65532:65532", c.get("User").asText(), "a non-root numeric user");
        assertEquals("/var/lib/windlass", c.get("WorkingDir").asText());
        assertTrue(strings(c.get("Env")).contains("HOME=/var/lib/windlass"), c.get("Env").toString());
        List<String> layers = new ArrayList<>();
        config.get("history").forEach(h -> layers.add(h.path("comment").asText()));
        assertEquals(List.of("dependencies", "project dependencies", "resources", "classes", "jvm arg files", "extra files"), layers,
                "Jib's layers, the jars apart from the runtime: a new build of the engine changes only the small ones");
        assertEquals(layers.size(), manifest.get("Layers").size());

        // Unpack the layers in order into one root, as a container runtime does.
        Path root = dir.resolve("root");
        Files.createDirectories(root);
        for (JsonNode layer : manifest.get("Layers")) {
            run(dir, "tar", "-xzf", image.resolve(layer.asText()).toString(), "-C", root.toString());
        }
        assertTrue(Files.isExecutable(root.resolve("opt/java/bin/java")), "the jlinked runtime");
        assertTrue(Files.size(root.resolve("etc/ssl/certs/ca-certificates.crt")) > 10_000, "CA certificates for the render tools");
        assertTrue(Files.isRegularFile(root.resolve("opt/java/lib/security/cacerts")), "the runtime's CA certificates");
        assertTrue(Files.isExecutable(root.resolve("usr/local/bin/kustomize")), "kustomize");
        assertTrue(Files.isExecutable(root.resolve("usr/local/bin/helm")), "helm");
        assertTrue(Files.isExecutable(root.resolve("usr/local/bin/landlock-restrict")), "the render sandbox's launcher");
        assertTrue(Files.isExecutable(root.resolve("usr/local/bin/sops")), "sops, for SOPS-encrypted manifests");
        // The image's launcher confines what it runs: given only an empty folder of its own, it may not even execute helm.
        Path own = Files.createDirectories(dir.resolve("confined"));
        Process confined = new ProcessBuilder(root.resolve("usr/local/bin/landlock-restrict").toString(), "-rw", own.toString(), "--",
                root.resolve("usr/local/bin/helm").toString(), "version").redirectErrorStream(true).start();
        String said = new String(confined.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertNotEquals(0, confined.waitFor(), "helm ran outside what the sandbox allowed: " + said);
        assertTrue(said.contains("permission denied"), said);
        assertTrue(Files.notExists(root.resolve("bin/sh")), "no shell: a scratch base");
        String modules = run(dir, root.resolve("opt/java/bin/java").toString(), "--list-modules");
        assertTrue(modules.contains("java.base") && !modules.contains("jdk.compiler"), "a runtime of the modules the jars use:\n" + modules);

        // The entrypoint, with the image's paths under the unpacked root.
        String classpath = Files.readString(root.resolve("app/jib-classpath-file"), StandardCharsets.UTF_8).trim()
                .replace("/app/", root.resolve("app") + "/");
        Path err = Files.createTempFile(dir, "version", ".err");
        String version = run(dir, err, root.resolve("opt/java/bin/java").toString(), "--sun-misc-unsafe-memory-access=allow", "-XX:+UseCompactObjectHeaders", "-cp", classpath,
                "dev.windlass.engine.cli.Main", "--version");
        assertTrue(version.startsWith("windlass "), version);
        assertEquals("", Files.readString(err), "the engine starts without the JDK's warnings");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Runs a command; its standard output, or a failure with everything it printed. */
    private static String run(Path dir, String... command) throws Exception {
        return run(dir, Files.createTempFile(dir, "err", ".txt"), command);
    }

    /** Runs a command, its standard error into {@code err}; its standard output, or a failure with everything it printed. */
    private static String run(Path dir, Path err, String... command) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        String text = Files.readString(out);
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + text + Files.readString(err));
        return text;
    }
}
