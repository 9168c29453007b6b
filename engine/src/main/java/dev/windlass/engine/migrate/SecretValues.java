package dev.windlass.engine.migrate;

import dev.windlass.policy.parse.YamlDoc;
import dev.windlass.policy.parse.YamlReader;
import dev.windlass.policy.source.Snapshot;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Set;

/**
 * The values of the repo's Secrets ({@code stringData}, and {@code data} decoded), so that import can check that nothing
 * it writes holds one, however the reading brought it in (a HelmRelease's valuesFrom, a patch that adds one). Kept in
 * memory only; never printed: an error names the Secret, not its value.
 */
final class SecretValues {
    /** Shorter values are too common to tell ("true", "80"). */
    private static final int SHORTEST = 6;

    private SecretValues() {}

    /** Each value, prefixed with the Secret's name and place: {@code value -> "Secret ns/name (path:line:col)"}, as a set of "value\0name". */
    static Set<String> of(Snapshot repo) {
        Set<String> out = new TreeSet<>();
        for (String path : repo.files().keySet()) {
            if (!(path.endsWith(".yaml") || path.endsWith(".yml"))) continue;
            byte[] bytes = repo.read(path);
            if (!new String(bytes, StandardCharsets.UTF_8).contains("Secret")) continue;
            for (YamlDoc d : YamlReader.read(path, repo.files().get(path), bytes).docs()) {
                if (!d.kind().equals("Secret") || !"v1".equals(d.apiVersion())) continue;
                String name = d.value().get("metadata") instanceof Map<?, ?> m ? m.get("namespace") + "/" + m.get("name") : "?";
                String where = "Secret " + name + " (" + d.location() + ")";
                if (d.value().get("stringData") instanceof Map<?, ?> sd) sd.values().forEach(v -> add(out, String.valueOf(v), where));
                if (d.value().get("data") instanceof Map<?, ?> data) {
                    for (Object v : data.values()) {
                        try {
                            add(out, utf8(Base64.getDecoder().decode(String.valueOf(v).replaceAll("\\s", ""))), where);
                        } catch (IllegalArgumentException | CharacterCodingException e) {
                            // not base64, or not text: it cannot be written as text either
                        }
                    }
                }
            }
        }
        return out;
    }

    private static void add(Set<String> out, String value, String where) {
        for (String line : value.split("\n")) {
            String v = line.strip();
            if (v.length() >= SHORTEST) out.add(v + "\0" + where);
        }
    }

    private static String utf8(byte[] b) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
    }

    /** The Secret whose value one of {@code texts} holds ("Secret ns/name (path:line:col)"), or null. */
    static String foundIn(Set<String> secrets, String first, Collection<String> more) {
        Map<String, String> byValue = new TreeMap<>();
        for (String s : secrets) byValue.put(s.substring(0, s.indexOf('\0')), s.substring(s.indexOf('\0') + 1));
        for (var e : byValue.entrySet()) {
            if (first.contains(e.getKey()) || more.stream().anyMatch(t -> t.contains(e.getKey()))) return e.getValue();
        }
        return null;
    }
}
