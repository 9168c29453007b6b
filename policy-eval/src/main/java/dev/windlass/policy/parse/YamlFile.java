package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import java.util.List;

/**
 * A parsed file. When {@link #broken()} the YAML itself could not be read, so nothing in the file can be
 * trusted: whatever it defined before is held, not deleted.
 */
public record YamlFile(String path, String contentId, List<YamlDoc> docs, List<Diagnostic> diagnostics) {
    public YamlFile {
        docs = List.copyOf(docs);
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean broken() { return diagnostics.stream().anyMatch(Diagnostic::isError); }
}
