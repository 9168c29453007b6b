package dev.windlass.policy.parse;

import dev.windlass.policy.source.KustomizeReach;

/**
 * Kustomize's own files ({@code kustomization.yaml} and its other spellings, and any {@code kustomize.config.k8s.io}
 * document, such as a Component): they tell kustomize how to build, and are never objects to apply, wherever they are.
 */
final class KustomizeConfigs {
    private KustomizeConfigs() {}

    static boolean is(YamlDoc doc) {
        String name = doc.path().substring(doc.path().lastIndexOf('/') + 1);
        return KustomizeReach.FILE_NAMES.contains(name) || doc.apiVersion().startsWith("kustomize.config.k8s.io/");
    }
}
