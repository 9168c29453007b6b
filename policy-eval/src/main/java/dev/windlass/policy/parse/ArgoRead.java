package dev.windlass.policy.parse;

import dev.windlass.policy.model.SourceLocation;
import java.util.List;
import java.util.Map;

/**
 * What an Argo CD {@code Application}'s {@code spec.source} says beyond its path, as read: which files of a plain
 * directory are its manifests, what its {@code kustomize} block writes into the kustomization, and the Helm values its
 * {@code helm} block gives inline. Kept as plain values in the order written.
 *
 * @param origin     the Application's document: where its render's problems are said
 * @param directory  which files of a plain directory are read
 * @param kustomize  what {@code spec.source.kustomize} writes into the path's kustomization, as Argo CD's
 *                   {@code kustomize edit} writes it; null when the block is absent
 * @param helmValues the values of {@code helm.values} or {@code helm.valuesObject} with {@code helm.parameters} set over
 *                   them, as YAML text: read after the values files, as Argo CD passes them; "" when none
 * @param more       the further plain directories of {@code spec.sources}, after the first (the application's source
 *                   path): their objects are applied with the first's, as one application; empty for one source
 */
record ArgoRead(SourceLocation origin, Directory directory, Kustomize kustomize, String helmValues, List<More> more) {

    ArgoRead {
        more = List.copyOf(more);
    }

    ArgoRead(SourceLocation origin, Directory directory, Kustomize kustomize, String helmValues) {
        this(origin, directory, kustomize, helmValues, List.of());
    }

    /** A plain directory of {@code spec.sources} after the first: its path ("" for the repo's root), which files, and where. */
    record More(String path, Directory directory, SourceLocation at) {}

    /** Every plain directory read, the source path's first: {@code path -> directory}, in the order written. */
    List<More> directories(String sourcePath, SourceLocation at) {
        List<More> all = new java.util.ArrayList<>();
        all.add(new More(sourcePath, directory, at));
        all.addAll(more);
        return all;
    }

    /**
     * {@code spec.source.directory}: only the files directly in the path unless {@code recurse}; {@code include} and
     * {@code exclude} are globs on the file's path relative to it ({@code *} matches any text, '/' too; {@code {a,b}}
     * either), as Argo CD matches them; "" for none.
     */
    record Directory(boolean recurse, String include, String exclude) {
        static final Directory DEFAULT = new Directory(false, "", "");

        /** Whether the file at {@code relative} (to the source path) is one of the application's manifests. */
        boolean reads(String relative) {
            if (!recurse && relative.contains("/")) return false;
            if (!include.isEmpty() && !Globs.matches(include, relative)) return false;
            return exclude.isEmpty() || !Globs.matches(exclude, relative);
        }
    }

    /**
     * {@code spec.source.kustomize}: a name prefix and suffix in place of the kustomization's own, images merged by name
     * into its own, labels and annotations added to its {@code commonLabels} and {@code commonAnnotations}, and a
     * namespace in place of its own (null or empty when not given).
     */
    record Kustomize(String namePrefix, String nameSuffix, String namespace, List<Map<String, Object>> images,
                     Map<String, String> commonLabels, Map<String, String> commonAnnotations) {
        Kustomize {
            images = List.copyOf(images);
            commonLabels = Map.copyOf(commonLabels);
            commonAnnotations = Map.copyOf(commonAnnotations);
        }
    }
}
