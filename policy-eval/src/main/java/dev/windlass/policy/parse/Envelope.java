package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import java.util.List;

/**
 * The parts every Windlass object shares: apiVersion, kind, metadata (name and labels) and spec,
 * read strictly. {@code meta} or {@code spec} is null when missing or invalid (already reported).
 */
record Envelope(Fields root, Metadata meta, Fields spec) {

    static Envelope read(YamlDoc doc, String kind, List<Diagnostic> out) {
        Fields root = Fields.root(doc, kind, out);
        root.has("apiVersion");
        root.has("kind");
        Metadata meta = Metadata.read(root);
        Fields spec = root.object("spec");
        root.end();
        return new Envelope(root, meta, spec);
    }
}
