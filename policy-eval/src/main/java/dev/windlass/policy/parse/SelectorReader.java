package dev.windlass.policy.parse;

import dev.windlass.policy.model.LabelSelector;
import java.util.ArrayList;
import java.util.List;

/** Reads a label selector ({@code matchLabels}, {@code matchExpressions}) with the API server's rules. */
final class SelectorReader {
    private SelectorReader() {}

    static LabelSelector read(Fields parent, String key) {
        Fields f = parent.object(key);
        if (f == null) return LabelSelector.EVERYTHING;
        var labels = f.stringMap("matchLabels");
        List<LabelSelector.Requirement> expressions = new ArrayList<>();
        for (Fields e : f.objects("matchExpressions")) {
            String k = e.requiredString("key");
            LabelSelector.Operator op = e.enumValue("operator", LabelSelector.Operator.class, null);
            if (!e.has("operator")) e.errorHere(e.name("operator") + " is required; use one of " + Fields.names(LabelSelector.Operator.class));
            List<String> values = e.strings("values");
            e.end();
            if (k == null || op == null) continue;
            boolean needsValues = op == LabelSelector.Operator.In || op == LabelSelector.Operator.NotIn;
            if (needsValues && values.isEmpty()) e.error("values", e.name("values") + " must not be empty for operator " + op);
            else if (!needsValues && !values.isEmpty()) e.error("values", e.name("values") + " must be empty for operator " + op);
            else expressions.add(new LabelSelector.Requirement(k, op, values));
        }
        f.end();
        return new LabelSelector(labels, expressions);
    }
}
