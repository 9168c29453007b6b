package dev.windlass.kubetest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.Yaml;

/**
 * kwok's stages, split by who plays them. Every kwok process plays every stage it is given for objects that belong to
 * no node (volumes), so with one kwok per node, each volume would be provisioned by all of them at once and their
 * writes race. The stages for nodes and their Pods go to every kubelet; the stages for PersistentVolumes and
 * PersistentVolumeClaims go to one provisioner, as a real cluster has one provisioner for a storage class.
 */
record KwokStages(Path nodeStages, Path volumeStages) {

    private static final Set<String> VOLUME_KINDS = Set.of("PersistentVolume", "PersistentVolumeClaim");

    /** Splits {@code stages} (kwok's Stage documents) into two files in {@code dir}. */
    static KwokStages split(Path stages, Path dir) {
        try {
            List<String> node = new ArrayList<>();
            List<String> volume = new ArrayList<>();
            for (String document : Files.readString(stages, StandardCharsets.UTF_8).split("(?m)^---\\s*$")) {
                if (document.isBlank()) continue;
                (VOLUME_KINDS.contains(kindOf(document)) ? volume : node).add(document.strip());
            }
            if (node.isEmpty() || volume.isEmpty()) {
                throw new IllegalStateException(stages + " lacks node or volume stages; run scripts/kube-test-env.sh again");
            }
            KwokStages split = new KwokStages(dir.resolve("kwok-node-stages.yaml"), dir.resolve("kwok-volume-stages.yaml"));
            Files.writeString(split.nodeStages, String.join("\n---\n", node) + "\n", StandardCharsets.UTF_8);
            Files.writeString(split.volumeStages, String.join("\n---\n", volume) + "\n", StandardCharsets.UTF_8);
            return split;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot split kwok's stages " + stages, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static String kindOf(String document) {
        Object loaded = new Yaml().load(document);
        if (!(loaded instanceof Map<?, ?> stage) || !(stage.get("spec") instanceof Map<?, ?> spec)
                || !(spec.get("resourceRef") instanceof Map<?, ?> ref)) {
            return "";
        }
        return String.valueOf(((Map<String, Object>) ref).get("kind"));
    }
}
