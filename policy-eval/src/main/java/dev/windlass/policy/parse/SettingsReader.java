package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Settings;
import java.time.Duration;
import java.util.List;

/** Reads {@code kind: Settings} (usually {@code windlass.yaml}); anything left out keeps its default. */
final class SettingsReader {
    private SettingsReader() {}

    static Settings read(YamlDoc doc, List<Diagnostic> out) {
        Fields root = Fields.root(doc, "Settings", out);
        root.has("apiVersion");
        root.has("kind");
        if (root.has("metadata")) Metadata.read(root);
        Fields spec = root.object("spec");
        root.end();
        if (spec == null) return Settings.DEFAULT;
        String branch = spec.string("statusBranch", Settings.DEFAULT.statusBranch());
        Duration interval = Settings.DEFAULT.interval();
        String text = spec.string("interval", null);
        if (text != null) {
            Duration d = Durations.parse(text);
            if (d == null || d.isZero()) spec.error("interval", "Settings.spec.interval '" + text + "' is not a duration; write e.g. 30s, 5m or 1h");
            else interval = d;
        }
        spec.end();
        return new Settings(branch, interval);
    }
}
