package dev.windlass.kubetest;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the kube-apiserver and etcd binaries are. They cannot be downloaded on machines that reach only package
 * registries, so scripts/kube-test-env.sh builds them from the Go module proxy into a cache directory.
 */
public record Binaries(Path dir) {

    /** The directory the script fills by default. */
    public static final String DEFAULT_DIR = "~/.cache/windlass/k8s/v1.34.4";

    /**
     * {@code $WINDLASS_K8S_DIR}; else where the script puts them given the same settings it reads
     * ({@code $WINDLASS_K8S_CACHE/$WINDLASS_K8S_VERSION}), which by default is {@value #DEFAULT_DIR}.
     */
    public static Binaries fromEnvironment() {
        String dir = env("WINDLASS_K8S_DIR", null);
        if (dir == null) dir = env("WINDLASS_K8S_CACHE", "~/.cache/windlass/k8s") + "/" + env("WINDLASS_K8S_VERSION", "v1.34.4");
        return new Binaries(dir.startsWith("~/")
                ? Path.of(System.getProperty("user.home"), dir.substring(2))
                : Path.of(dir));
    }

    private static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? otherwise : value;
    }

    public Path apiServer() { return dir.resolve("kube-apiserver"); }

    public Path etcd() { return dir.resolve("etcd"); }

    /** Fails with what to run when a binary is missing; a skipped test would hide that nothing was tested. */
    public Binaries requirePresent() {
        for (Path binary : new Path[] {apiServer(), etcd()}) {
            if (!Files.isExecutable(binary)) {
                throw new IllegalStateException(binary.getFileName() + " not found in " + dir
                        + "; run scripts/kube-test-env.sh (first build takes ~10 min)");
            }
        }
        return this;
    }
}
