package dev.windlass.policy.model;

import java.util.List;
import java.util.Map;

/** A Kubernetes label selector: every matchLabels entry and every expression must hold. Empty matches all. */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {

    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = Map.copyOf(matchLabels);
        matchExpressions = List.copyOf(matchExpressions);
    }

    public enum Operator { In, NotIn, Exists, DoesNotExist }

    public record Requirement(String key, Operator operator, List<String> values) {
        public Requirement { values = List.copyOf(values); }

        boolean matches(Map<String, String> labels) {
            return switch (operator) {
                case In -> labels.containsKey(key) && values.contains(labels.get(key));
                case NotIn -> !labels.containsKey(key) || !values.contains(labels.get(key));
                case Exists -> labels.containsKey(key);
                case DoesNotExist -> !labels.containsKey(key);
            };
        }
    }

    public boolean matches(Map<String, String> labels) {
        for (var e : matchLabels.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) return false;
        }
        for (Requirement r : matchExpressions) {
            if (!r.matches(labels)) return false;
        }
        return true;
    }

    public boolean isEmpty() { return matchLabels.isEmpty() && matchExpressions.isEmpty(); }
}
