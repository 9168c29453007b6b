package dev.windlass.policy.parse;

import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether some object could match two label selectors at once: whether, key by key, what both ask can be true
 * together. {@code tier: a} and {@code tier: b} cannot; {@code role: cp} and {@code zone: x} can (a node may carry
 * both labels), so two policies that must never share a target need a key one requires and the other excludes.
 */
final class SelectorOverlap {
    private SelectorOverlap() {}

    static boolean possible(LabelSelector a, LabelSelector b) {
        Map<String, Key> keys = new HashMap<>();
        for (LabelSelector s : List.of(a, b)) {
            s.matchLabels().forEach((k, v) -> keys.computeIfAbsent(k, x -> new Key()).allow(Set.of(v)));
            for (Requirement r : s.matchExpressions()) keys.computeIfAbsent(r.key(), x -> new Key()).add(r);
        }
        return keys.values().stream().allMatch(Key::possible);
    }

    /** What the selectors ask of one label key. */
    private static final class Key {
        private boolean mustExist;
        private boolean mustNotExist;
        /** The values allowed, or null for any. */
        private Set<String> allowed;
        private final Set<String> forbidden = new HashSet<>();

        void allow(Set<String> values) {
            mustExist = true;
            if (allowed == null) allowed = new HashSet<>(values);
            else allowed.retainAll(values);
        }

        void add(Requirement r) {
            switch (r.operator()) {
                case In -> allow(new HashSet<>(r.values()));
                case NotIn -> forbidden.addAll(r.values());
                case Exists -> mustExist = true;
                case DoesNotExist -> mustNotExist = true;
            }
        }

        boolean possible() {
            if (mustExist && mustNotExist) return false;
            if (allowed == null) return true;
            List<String> left = new ArrayList<>(allowed);
            left.removeAll(forbidden);
            return !left.isEmpty();
        }
    }
}
