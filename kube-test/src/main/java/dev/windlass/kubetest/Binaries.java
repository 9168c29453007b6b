package dev.windlass.kubetest;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the control plane's binaries are: kube-apiserver and etcd, and for a whole control plane
 * kube-controller-manager, kube-scheduler and kwok (with the stages kwok runs). They cannot be downloaded on machines
 * that reach only package registries, so scripts/kube-test-env.sh builds them from the Go module proxy into a cache
 * directory.
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

    public Path controllerManager() { return dir.resolve("kube-controller-manager"); }

    public Path scheduler() { return dir.resolve("kube-scheduler"); }

    public Path kwok() { return dir.resolve("kwok"); }

    /** kwok's own stages (node heartbeat, pods made running and ready), which the script copies from kwok's module. */
    public Path kwokStages() { return dir.resolve("kwok-stages.yaml"); }

    /** Fails with what to run when a binary is missing; a skipped test would hide that nothing was tested. */
    public Binaries requirePresent() {
        return require(apiServer(), etcd());
    }

    /** Like {@link #requirePresent()}, for everything a whole control plane runs. */
    public Binaries requireControlPlane() {
        require(apiServer(), etcd(), controllerManager(), scheduler(), kwok());
        if (!Files.isReadable(kwokStages())) throw missing(kwokStages());
        return this;
    }

    private Binaries require(Path... binaries) {
        for (Path binary : binaries) {
            if (!Files.isExecutable(binary)) throw missing(binary);
        }
        return this;
    }

    private IllegalStateException missing(Path file) {
        return new IllegalStateException(file.getFileName() + " not found in " + dir
                + "; run scripts/kube-test-env.sh (the first build takes about 10 min)");
    }
}
