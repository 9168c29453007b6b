package dev.windlass.bench;

import io.fabric8.kubernetes.client.Config;
import java.util.List;

/** Where a benchmark's clusters run, how to reach them, and how many requests they received. */
interface Clusters extends AutoCloseable {

    /** Requests the clusters' API servers received, summed over the clusters. */
    record Counts(long reads, long writes) {
        Counts minus(Counts earlier) { return new Counts(reads - earlier.reads, writes - earlier.writes); }
    }

    List<String> names();

    Config config(String cluster);

    boolean serverSideApply();

    /** What the cluster's file in the config repo says under {@code spec.connection}. */
    String connectionYaml(String cluster);

    Counts counts();

    /**
     * {@code true}: the cluster hangs: it accepts connections and answers nothing, open connections included (a stopped
     * API server process). {@code false}: it answers again.
     */
    void hang(String cluster, boolean hung);

    String describe();

    @Override void close();
}
