package dev.windlass.bench;

import dev.windlass.kubetest.KubeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;

/**
 * An engine the side-by-side scenario runs against a fresh control plane and a repo served over HTTP: Windlass as an
 * operator runs it ({@link WindlassProcess}), or a peer ({@link FluxControllers}). Each acts as API users of its own, so
 * the server's audit log tells its writes from everyone else's.
 */
sealed interface Contender permits WindlassProcess, FluxControllers {
    /** How the table names it. */
    String name();

    /** The API server's audited users its processes act as, one per process. */
    List<String> users();

    /** Its repo: the shared manifests of {@code repo} and whatever tells this engine to apply them. */
    SortedMap<String, byte[]> files(SyntheticRepo repo);

    /** What an operator installs on the cluster before the engine starts, as the admin (not counted). */
    void install(KubernetesClient admin, SyntheticRepo repo, String repoUrl) throws Exception;

    /** Starts its processes, acting as {@link #users()} on {@code cluster}; their output goes to files under {@code dir}. */
    List<Process> start(Path dir, KubeCluster cluster, String repoUrl) throws Exception;

    /** Tells it the branch moved, as a Git host's push webhook would. */
    void pushed(KubernetesClient admin, SyntheticRepo repo) throws Exception;
}
