package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.text.Excerpt;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The variables a Flux Kustomization's postBuild substitutes: those of each {@code substituteFrom} ConfigMap ({@code data})
 * and Secret ({@code data}, decoded, and {@code stringData}), later ones over earlier ones, then {@code substitute} over
 * them all; each value without its line breaks, as in Flux. Flux reads the ConfigMaps and Secrets from the cluster, in the
 * Kustomization's namespace; Windlass reads them from the repo: first the cluster folder of the Kustomization, then, if
 * none is there, the whole repo, where one only may have that name.
 */
final class FluxVariables {
    private static final Pattern VAR_NAME = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");

    private FluxVariables() {}

    static Map<String, String> of(FluxRead flux, List<YamlDoc> docs, List<Diagnostic> out) {
        Map<String, String> vars = new TreeMap<>();
        for (FluxRead.SubstituteFrom from : flux.substituteFrom()) {
            List<YamlDoc> found = new ArrayList<>();
            List<YamlDoc> inFolder = new ArrayList<>();
            for (YamlDoc doc : docs) {
                if (!doc.apiVersion().equals("v1") || !doc.kind().equals(from.kind().name())) continue;
                if (!(doc.value().get("metadata") instanceof Map<?, ?> meta) || !from.name().equals(meta.get("name"))) continue;
                Object ns = meta.get("namespace");
                if (ns != null && !ns.equals(flux.namespace())) continue;
                found.add(doc);
                if (flux.folder().isEmpty() || doc.path().startsWith(flux.folder() + "/")) inFolder.add(doc);
            }
            List<YamlDoc> candidates = inFolder.isEmpty() ? found : inFolder;
            String what = from.kind() + " " + flux.namespace() + "/" + from.name();
            if (candidates.isEmpty()) {
                if (!from.optional()) {
                    out.add(Diagnostic.error(from.at(), "postBuild.substituteFrom: no " + what + " is in the repo; Windlass reads the"
                            + " ConfigMaps and Secrets of substituteFrom from the repo (the cluster folder first): add it, or set optional: true"));
                }
                continue;
            }
            if (candidates.size() > 1) {
                out.add(Diagnostic.error(from.at(), "postBuild.substituteFrom: " + what + " is defined "
                        + candidates.size() + " times (" + String.join(", ", candidates.stream().map(d -> d.location().toString()).toList())
                        + "); keep one, or put one in the Kustomization's cluster folder"));
                continue;
            }
            YamlDoc doc = candidates.get(0);
            for (String key : keys(doc, from.kind())) {
                if (!VAR_NAME.matcher(key).matches()) {
                    out.add(Diagnostic.error(from.at(), "postBuild.substituteFrom: " + what + " (" + doc.location() + ") has the key "
                            + Excerpt.quoted(key) + ", which is not a valid variable name: letters, digits and '_', not starting with a digit"
                            + " (Flux refuses it too); rename the key"));
                }
            }
            if (doc.value().get("data") instanceof Map<?, ?> data) {
                data.forEach((k, v) -> {
                    String text = String.valueOf(v);
                    if (from.kind() == FluxRead.SubstituteFrom.Kind.Secret) {
                        try {
                            text = new String(Base64.getMimeDecoder().decode(text), StandardCharsets.UTF_8);
                        } catch (IllegalArgumentException e) {
                            out.add(Diagnostic.error(doc.location(), what + ": data." + Excerpt.quoted(String.valueOf(k)) + " is not base64"));
                        }
                    }
                    vars.put(String.valueOf(k), text.replace("\n", ""));
                });
            }
            if (from.kind() == FluxRead.SubstituteFrom.Kind.Secret && doc.value().get("stringData") instanceof Map<?, ?> data) {
                data.forEach((k, v) -> vars.put(String.valueOf(k), String.valueOf(v).replace("\n", "")));
            }
        }
        flux.substitute().forEach((k, v) -> vars.put(k, v.replace("\n", "")));  // their names are checked where they are written
        return vars;
    }

    private static List<String> keys(YamlDoc doc, FluxRead.SubstituteFrom.Kind kind) {
        List<String> keys = new ArrayList<>();
        if (doc.value().get("data") instanceof Map<?, ?> data) data.keySet().forEach(k -> keys.add(String.valueOf(k)));
        if (kind == FluxRead.SubstituteFrom.Kind.Secret && doc.value().get("stringData") instanceof Map<?, ?> data) {
            data.keySet().forEach(k -> keys.add(String.valueOf(k)));
        }
        return keys;
    }
}
