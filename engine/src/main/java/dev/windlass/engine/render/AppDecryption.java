package dev.windlass.engine.render;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.render.DecryptionKeys;
import dev.windlass.render.SopsDecryptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Decrypts, just before a pass plans and applies, the manifests of each application that sops encrypted: a document
 * with a {@code sops} mapping (its MAC and keys) is decrypted by the real sops ({@link SopsDecryptor}) from its file as
 * Git holds it, in memory, with the engine's own keys ({@link DecryptionKeys}); the object sent is the document as
 * written with its decrypted fields, without the {@code sops} metadata, and with {@value #MARKER_ANNOTATION} set to a
 * keyed hash of what was decrypted (see {@link DecryptionKeys#marker}), so that a plan shows that the value changed
 * without showing it.
 *
 * <p>A file that cannot be decrypted (no key, a wrong key, a file changed after it was encrypted) is an error of its
 * application at the document's {@code path:line:col}: the application is invalid, nothing of it is applied, what of it
 * is on the clusters stays as it is, and the other applications go on. The commands that only plan (plan, reviews,
 * render, validate) never decrypt: they show the encrypted object as Git holds it.
 */
public final class AppDecryption implements AutoCloseable {

    /** The annotation a decrypted object carries: the marker of its decrypted fields. */
    public static final String MARKER_ANNOTATION = "windlass.dev/sops-hmac";
    /**
     * The annotation an encrypted object carries, decrypted or not: 12 hex of the content hash of the document as Git holds
     * it, encrypted. A plan made without keys compares it, and so says whether the ciphertext changed.
     */
    public static final String CIPHERTEXT_ANNOTATION = "windlass.dev/sops-ciphertext";
    /** The system property the engine's {@code --decryption-keys} flag sets; wins over {@link #KEYS_ENV}. */
    public static final String KEYS_PROPERTY = "windlass.decryption.keys";
    public static final String KEYS_ENV = "WINDLASS_DECRYPTION_KEYS";

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AppDecryption.class);

    private final SopsDecryptor decryptor;
    private volatile DecryptionKeys keys;
    /** The key directory read again when its files change (a Secret mounted as a volume); null: the keys are fixed. */
    private volatile Path keyDir;
    /** Names, sizes and modification times of the key directory's files when last read. */
    private String keyDirSeen = "";
    /** Reads a Secret of the engine's namespace: an application's own keys ({@code spec.decryption.secretRef}). */
    private volatile java.util.function.Function<String, dev.windlass.applier.cluster.ClusterClients.SecretData> secrets =
            name -> new dev.windlass.applier.cluster.ClusterClients.SecretData(Map.of(), "cannot read Secret " + name
                    + ": this engine has no management cluster to read it from");

    public AppDecryption(SopsDecryptor decryptor, DecryptionKeys keys) {
        this.decryptor = decryptor;
        this.keys = keys;
    }

    private AppDecryption(SopsDecryptor decryptor, Path keyDir) {
        this(decryptor, DecryptionKeys.NONE);
        this.keyDir = keyDir;
        refreshKeys();
    }

    /**
     * The engine's decryption: sops as every render finds it, the keys in the directory its {@code --decryption-keys} flag
     * (or {@value #KEYS_ENV}) names, none when it names none.
     *
     * @throws IllegalArgumentException when that directory or a key in it cannot be read, naming the file, never a key
     */
    public static AppDecryption fromEnvironment() {
        Path dir = keyDirFromEnvironment();
        if (dir != null) keysFrom(dir);  // a directory that cannot be read stops the engine at its start, not at its first pass
        return dir == null ? new AppDecryption(SopsDecryptor.fromEnvironment(), DecryptionKeys.NONE) : new AppDecryption(SopsDecryptor.fromEnvironment(), dir);
    }

    /** The key directory the engine's flag or environment names, or null. */
    public static Path keyDirFromEnvironment() {
        String dir = System.getProperty(KEYS_PROPERTY);
        if (dir == null || dir.isBlank()) dir = System.getenv(KEYS_ENV);
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    /**
     * The keys in {@code dir}.
     *
     * @throws IllegalArgumentException when the directory or a key in it cannot be read, naming the file, never a key
     */
    public static DecryptionKeys keysFrom(Path dir) {
        try {
            return DecryptionKeys.fromDirectory(dir);
        } catch (DecryptionKeys.KeyProblem e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** Reads the Secrets applications name for their keys with {@code reader} (the management cluster's, in the engine's namespace). */
    public void readSecretsWith(java.util.function.Function<String, dev.windlass.applier.cluster.ClusterClients.SecretData> reader) {
        this.secrets = reader;
    }

    /** Decrypts with {@code replaced} from now on, and no longer reads a key directory. */
    public void useKeys(DecryptionKeys replaced) {
        this.keyDir = null;
        this.keys = replaced;
    }

    /**
     * Reads the key directory again when its files changed (a key added to the Secret mounted there): a key file that
     * cannot be read is logged, by name, and the keys read before are kept.
     */
    private synchronized void refreshKeys() {
        Path dir = keyDir;
        if (dir == null) return;
        StringBuilder seen = new StringBuilder();
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                seen.append(f.getFileName()).append(' ').append(java.nio.file.Files.size(f)).append(' ')
                        .append(java.nio.file.Files.getLastModifiedTime(f).toMillis()).append('\n');
            }
        } catch (java.io.IOException e) {
            seen.append("unreadable");
        }
        if (seen.toString().equals(keyDirSeen)) return;
        keyDirSeen = seen.toString();
        try {
            keys = DecryptionKeys.fromDirectory(dir);
            log.info("SOPS-encrypted manifests are decrypted with {} from {}", keys, dir);
        } catch (DecryptionKeys.KeyProblem e) {
            log.warn("the decryption keys were not read again, the keys read before are kept: {}", e.getMessage());
        }
    }

    public DecryptionKeys keys() { return keys; }

    /** How many times sops ran. */
    public long toolRuns() { return decryptor.toolRuns(); }

    @Override public void close() { decryptor.close(); }

    /** Whether {@code m} is a document sops encrypted: it has a {@code sops} mapping with a MAC. */
    public static boolean encrypted(Manifest m) {
        return m.body().get("sops") instanceof Map<?, ?> sops && sops.containsKey("mac");
    }

    /** The keys in the Secret {@code name} of the engine's namespace, or why they cannot be had (a String naming no key). */
    private Object keysOfSecret(String name) {
        dev.windlass.applier.cluster.ClusterClients.SecretData data = secrets.apply(name);
        if (data.problem() != null) return data.problem();
        try {
            DecryptionKeys found = DecryptionKeys.fromEntries(data.data(), "of Secret " + name);
            return found.isEmpty() ? "Secret " + name + " holds no key named *.agekey or *.asc" : found;
        } catch (DecryptionKeys.KeyProblem e) {
            return e.getMessage();
        }
    }

    /**
     * {@code desired} with every encrypted manifest decrypted, or its application invalid saying why it could not be. An
     * application that names its own Secret ({@code spec.decryption.secretRef}) is decrypted with that Secret's keys only,
     * read once a pass; the others with the engine's.
     */
    public DesiredState decrypt(DesiredState desired, dev.windlass.policy.source.Snapshot snapshot) {
        SortedMap<String, Application> apps = new TreeMap<>(desired.apps());
        List<Diagnostic> all = new ArrayList<>(desired.diagnostics());
        boolean changed = false;
        refreshKeys();
        DecryptionKeys engineKeys = keys;
        Map<String, Object> secretKeys = new TreeMap<>();  // by Secret name, this pass: its DecryptionKeys, or why not (String)
        for (Application app : desired.apps().values()) {
            if (app.allManifests().stream().noneMatch(AppDecryption::encrypted)) continue;
            changed = true;
            List<Diagnostic> problems = new ArrayList<>();
            Application done;
            DecryptionKeys now = engineKeys;
            if (app.decryption() != null) {
                Object read = secretKeys.computeIfAbsent(app.decryption().secretName(), this::keysOfSecret);
                if (read instanceof String why) {
                    problems.add(Diagnostic.error(app.decryption().at(), "the keys of spec.decryption.secretRef cannot be read: " + why
                            + "; create it in the engine's namespace with the private keys as *.agekey and *.asc keys (docs/secrets.md)"));
                    now = null;
                } else {
                    now = (DecryptionKeys) read;
                }
            }
            if (now == null) {
                done = app;
            } else if (app.render() != null) {
                for (Manifest m : app.allManifests()) {
                    if (!encrypted(m)) continue;
                    problems.add(Diagnostic.error(app.location(), m.ref() + " is encrypted with SOPS, and objects a Kustomize or Helm source renders"
                            + " are not decrypted; keep SOPS-encrypted manifests in an application whose source is a folder of plain YAML"));
                    break;
                }
                done = app;
            } else {
                DecryptionKeys appKeys = now;
                Map<String, SopsDecryptor.Result> byFile = new TreeMap<>();
                List<Manifest> out = new ArrayList<>();
                for (Manifest m : app.manifests()) {
                    if (!encrypted(m)) {
                        out.add(m);
                        continue;
                    }
                    String path = m.location().path();
                    SopsDecryptor.Result r = byFile.computeIfAbsent(path, p -> decryptor.decrypt(snapshot.read(p), SopsDecryptor.Format.of(p), appKeys));
                    if (r instanceof SopsDecryptor.Result.Failed f) {
                        problems.add(Diagnostic.error(m.location(), m.ref() + " cannot be decrypted: " + f.message()));
                        continue;
                    }
                    Manifest plain = decrypted(m, ((SopsDecryptor.Result.Decrypted) r).plain(), appKeys);
                    if (plain == null) {
                        problems.add(Diagnostic.error(m.location(), m.ref() + " is not in what sops decrypted from " + path
                                + "; keep one object per encrypted file, encrypted as a whole with sops -e"));
                        continue;
                    }
                    out.add(plain);
                }
                done = problems.isEmpty() ? app.withManifests(out) : app;
            }
            if (!problems.isEmpty()) {
                List<Diagnostic> diags = new ArrayList<>(app.diagnostics());
                diags.addAll(problems);
                diags.sort(null);
                done = done.withDiagnostics(diags);
                all.addAll(problems);
            }
            apps.put(app.name(), done);
        }
        if (!changed) return desired;
        all.sort(null);
        return desired.withApps(apps, all);
    }

    /**
     * {@code m} with the fields sops decrypted (every top-level field but apiVersion, kind and metadata, from the document
     * of {@code plain} that is the same object), its {@code sops} metadata left out and the marker annotation set; null
     * when {@code plain} holds no such document. Its hash stays Git's: the encrypted content says what is live.
     */
    static Manifest decrypted(Manifest m, byte[] plain, DecryptionKeys keys) {
        Map<String, Object> doc = null;
        // Read as every manifest is read (the same types); what is wrong is never said in the reader's words, which quote the text.
        dev.windlass.policy.parse.YamlFile file = dev.windlass.policy.parse.YamlReader.read(m.location().path(), "decrypted", plain);
        for (dev.windlass.policy.parse.YamlDoc d : file.docs()) {
            if (sameObject(d.value(), m)) {
                doc = d.value();
                break;
            }
        }
        if (doc == null) return null;
        Map<String, Object> body = new LinkedHashMap<>(m.body());
        body.remove("sops");
        Map<String, Object> fields = new TreeMap<>();
        for (Map.Entry<String, Object> e : doc.entrySet()) {
            String k = e.getKey();
            if (k.equals("apiVersion") || k.equals("kind") || k.equals("metadata") || k.equals("sops")) continue;
            body.put(k, e.getValue());
            fields.put(k, e.getValue());
        }
        Map<String, Object> meta = body.get("metadata") instanceof Map<?, ?> mm ? new LinkedHashMap<>(cast(mm)) : new LinkedHashMap<>();
        Map<String, Object> annotations = meta.get("annotations") instanceof Map<?, ?> a ? new TreeMap<>(cast(a)) : new TreeMap<>();
        annotations.put(MARKER_ANNOTATION, keys.marker(ContentHash.canonicalJson(fields).getBytes(StandardCharsets.UTF_8)));
        annotations.put(CIPHERTEXT_ANNOTATION, ciphertext(m));
        meta.put("annotations", Collections.unmodifiableMap(annotations));
        body.put("metadata", Collections.unmodifiableMap(meta));
        return m.sending(Collections.unmodifiableMap(body));
    }

    /** What {@value #CIPHERTEXT_ANNOTATION} says of {@code m}: 12 hex of Git's content hash of it, encrypted. */
    static String ciphertext(Manifest m) { return m.hash().substring(0, Math.min(12, m.hash().length())); }

    /**
     * {@code desired} as the commands that plan without keys see it (plan, reviews, render, validate): each encrypted
     * manifest without its {@code sops} metadata and without the fields holding encrypted values, with
     * {@value #CIPHERTEXT_ANNOTATION} set. Compared with what a pass applied (which carries the same annotation), a plan
     * says whether the ciphertext changed, and sends no ciphertext to an API server's dry run. Nothing is decrypted.
     */
    public static DesiredState keyless(DesiredState desired) {
        SortedMap<String, Application> apps = new TreeMap<>(desired.apps());
        boolean changed = false;
        for (Application app : desired.apps().values()) {
            if (app.render() != null || app.manifests().stream().noneMatch(AppDecryption::encrypted)) continue;
            changed = true;
            apps.put(app.name(), app.withManifests(app.manifests().stream().map(m -> encrypted(m) ? sealed(m) : m).toList()));
        }
        if (!changed) return desired;
        return desired.withApps(apps, desired.diagnostics());
    }

    /** {@code m} without its sops metadata and encrypted fields, its ciphertext annotated; Git's hash kept. */
    static Manifest sealed(Manifest m) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : m.body().entrySet()) {
            if (e.getKey().equals("sops") || holdsCiphertext(e.getValue())) continue;
            body.put(e.getKey(), e.getValue());
        }
        Map<String, Object> meta = body.get("metadata") instanceof Map<?, ?> mm ? new LinkedHashMap<>(cast(mm)) : new LinkedHashMap<>();
        Map<String, Object> annotations = meta.get("annotations") instanceof Map<?, ?> a ? new TreeMap<>(cast(a)) : new TreeMap<>();
        annotations.put(CIPHERTEXT_ANNOTATION, ciphertext(m));
        meta.put("annotations", Collections.unmodifiableMap(annotations));
        body.put("metadata", Collections.unmodifiableMap(meta));
        return m.sending(Collections.unmodifiableMap(body));
    }

    private static boolean holdsCiphertext(Object value) {
        if (value instanceof String s) return s.startsWith("ENC[");
        if (value instanceof Map<?, ?> map) return map.values().stream().anyMatch(AppDecryption::holdsCiphertext);
        if (value instanceof List<?> list) return list.stream().anyMatch(AppDecryption::holdsCiphertext);
        return false;
    }

    private static boolean sameObject(Map<?, ?> doc, Manifest m) {
        if (!m.ref().kind().equals(doc.get("kind"))) return false;
        return doc.get("metadata") instanceof Map<?, ?> meta && m.ref().name().equals(meta.get("name"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) { return (Map<String, Object>) m; }
}
