package dev.windlass.engine.migrate;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.parse.YamlDoc;
import dev.windlass.policy.parse.YamlReader;
import dev.windlass.policy.source.Snapshot;
import java.util.List;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Where the fields import cannot carry over are written: a HelmRelease's {@code valuesFrom} of a Secret (its values would
 * be written out in the native Application's values), a Kustomization's {@code postBuild}.
 */
final class FluxReleaseSecrets {
    private FluxReleaseSecrets() {}

    /** An error at the first {@code valuesFrom[].kind: Secret} of the release {@code app} is read from, or null. */
    static Diagnostic valuesFromSecret(Snapshot repo, Application app) {
        for (YamlDoc d : releases(repo, app)) {
            Node from = child(child(d.node(), "spec"), "valuesFrom");
            if (!(from instanceof SequenceNode seq)) continue;
            for (int i = 0; i < seq.getValue().size(); i++) {
                Node kind = child(seq.getValue().get(i), "kind");
                if (kind instanceof ScalarNode s && s.getValue().equals("Secret")) {
                    return Diagnostic.error(at(d.path(), kind), "HelmRelease.spec.valuesFrom[" + i + "] reads values from a Secret, which a native"
                            + " Application cannot reference (its values are written in Git, and a Secret's must not be); keep this release on"
                            + " Flux, or move those values to a SOPS-encrypted Secret the chart reads by name");
                }
            }
        }
        return null;
    }

    /** Where the HelmRelease of {@code app} is declared (the document naming its chart first), else its Kustomization. */
    static SourceLocation release(Snapshot repo, Application app) {
        List<YamlDoc> docs = releases(repo, app);
        return docs.isEmpty() ? app.location() : docs.get(0).location();
    }

    /** The position of {@code keys} in the document at {@code at}, as deep as it is written; {@code at} when the file is gone. */
    static SourceLocation field(Snapshot repo, SourceLocation at, String... keys) {
        if (at == null || !repo.files().containsKey(at.path())) return at;
        for (YamlDoc d : YamlReader.read(at.path(), repo.files().get(at.path()), repo.read(at.path())).docs()) {
            int first = d.node().getStartMark().getLine() + 1;
            int last = d.node().getEndMark().getLine() + 1;
            if (at.line() < first || at.line() > last) continue;
            Node n = d.node();
            SourceLocation found = d.location();
            for (String k : keys) {
                Node key = key(n, k);
                if (key == null) break;
                found = at(d.path(), key);
                n = child(n, k);
            }
            return found;
        }
        return at;
    }

    private static List<YamlDoc> releases(Snapshot repo, Application app) {
        String name = app.labels().get("flux.windlass.dev/name");
        List<YamlDoc> out = new java.util.ArrayList<>();
        for (String path : repo.files().keySet()) {
            if (!(path.endsWith(".yaml") || path.endsWith(".yml"))) continue;
            byte[] bytes = repo.read(path);
            if (!new String(bytes, java.nio.charset.StandardCharsets.UTF_8).contains("HelmRelease")) continue;
            for (YamlDoc d : YamlReader.read(path, repo.files().get(path), bytes).docs()) {
                if (d.kind().equals("HelmRelease") && d.value().get("metadata") instanceof java.util.Map<?, ?> m && name != null && name.equals(m.get("name"))) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    private static SourceLocation at(String path, Node n) {
        return new SourceLocation(path, n.getStartMark().getLine() + 1, n.getStartMark().getColumn() + 1);
    }

    private static Node key(Node n, String k) {
        if (!(n instanceof MappingNode m)) return null;
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(k)) return t.getKeyNode();
        }
        return null;
    }

    private static Node child(Node n, String k) {
        if (!(n instanceof MappingNode m)) return null;
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(k)) return t.getValueNode();
        }
        return null;
    }
}
