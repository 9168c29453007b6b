package dev.windlass.render;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The private keys the engine decrypts SOPS-encrypted files with: age identities ({@code AGE-SECRET-KEY-1...}, from files
 * named {@code *.agekey}) and OpenPGP secret keys (ASCII-armored, from files named {@code *.asc}), as Flux's
 * {@code decryption.secretRef} names them. They come from the engine's own configuration (a directory, a Secret in its
 * namespace), never from the repo. {@link #toString()} names how many keys there are, never what they are.
 *
 * <p>They also key the marker a plan shows where a decrypted value would be ({@link #marker}): an HMAC, so that the
 * marker changes when the value does, and says nothing of the value to whoever does not hold the keys.
 */
public final class DecryptionKeys {

    /** No keys: encrypted files cannot be decrypted. */
    public static final DecryptionKeys NONE = new DecryptionKeys(List.of(), List.of());

    private static final String AGE_PREFIX = "AGE-SECRET-KEY-1";
    private static final String PGP_BEGIN = "-----BEGIN PGP PRIVATE KEY BLOCK-----";
    private static final String PGP_END = "-----END PGP PRIVATE KEY BLOCK-----";

    private final List<String> ageIdentities;
    /** Each a binary OpenPGP transferable secret key (the armor taken off): what sops reads as a secret keyring. */
    private final List<byte[]> pgpSecretKeys;
    private final byte[] markerKey;

    private DecryptionKeys(List<String> ageIdentities, List<byte[]> pgpSecretKeys) {
        this.ageIdentities = List.copyOf(ageIdentities);
        this.pgpSecretKeys = List.copyOf(pgpSecretKeys);
        this.markerKey = markerKey(this.ageIdentities, this.pgpSecretKeys);
    }

    /** A key file that cannot be read as a key: its name and what is wrong, never its content. */
    public static final class KeyProblem extends Exception {
        public KeyProblem(String message) { super(message); }
    }

    /**
     * The keys in {@code dir}: every {@code *.agekey} (one or more {@code AGE-SECRET-KEY-1...} lines, as age-keygen writes
     * them; {@code #} comments are skipped) and every {@code *.asc} (one or more armored OpenPGP private key blocks, as
     * {@code gpg --armor --export-secret-keys} writes them). Other files are left alone.
     */
    public static DecryptionKeys fromDirectory(Path dir) throws KeyProblem {
        if (!Files.isDirectory(dir)) throw new KeyProblem("the decryption key directory " + dir + " is not a directory");
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> listed = Files.list(dir)) {
            for (Path p : listed.sorted().toList()) {
                String name = p.getFileName().toString();
                if ((name.endsWith(".agekey") || name.endsWith(".asc")) && Files.isRegularFile(p)) files.put(name, Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new KeyProblem("cannot read the decryption key directory " + dir + " (" + e.getClass().getSimpleName() + ")");
        }
        return fromEntries(files, "in " + dir);
    }

    /**
     * The keys in {@code entries}, by name as the files of a directory or the keys of a Secret: {@code *.agekey} and
     * {@code *.asc} are read, other names left alone. {@code where} says where they are, for the errors.
     */
    public static DecryptionKeys fromEntries(Map<String, byte[]> entries, String where) throws KeyProblem {
        List<String> age = new ArrayList<>();
        List<byte[]> pgp = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : new TreeMap<>(entries).entrySet()) {
            String name = e.getKey();
            String text = new String(e.getValue(), StandardCharsets.UTF_8);
            if (name.endsWith(".agekey")) {
                List<String> found = ageIdentities(text);
                if (found.isEmpty()) {
                    throw new KeyProblem(name + " " + where + " holds no age identity (a line starting " + AGE_PREFIX
                            + "); make one with: age-keygen -o " + name);
                }
                age.addAll(found);
            } else if (name.endsWith(".asc")) {
                List<byte[]> found = pgpSecretKeys(text);
                if (found == null || found.isEmpty()) {
                    throw new KeyProblem(name + " " + where + " holds no ASCII-armored OpenPGP private key block (" + PGP_BEGIN
                            + "); export one with: gpg --armor --export-secret-keys FINGERPRINT > " + name);
                }
                pgp.addAll(found);
            }
        }
        return new DecryptionKeys(age, pgp);
    }

    /** These keys and {@code other}'s. */
    public DecryptionKeys and(DecryptionKeys other) {
        if (other.isEmpty()) return this;
        if (isEmpty()) return other;
        List<String> age = new ArrayList<>(ageIdentities);
        age.addAll(other.ageIdentities);
        List<byte[]> pgp = new ArrayList<>(pgpSecretKeys);
        pgp.addAll(other.pgpSecretKeys);
        return new DecryptionKeys(age, pgp);
    }

    public boolean isEmpty() { return ageIdentities.isEmpty() && pgpSecretKeys.isEmpty(); }

    public int ageCount() { return ageIdentities.size(); }

    public int pgpCount() { return pgpSecretKeys.size(); }

    /** The age identities, one a line: the value of {@code SOPS_AGE_KEY}. Package-private: only sops is given them. */
    String ageKeyEnv() { return String.join("\n", ageIdentities); }

    /** The OpenPGP secret keys as one binary keyring (sops' {@code secring.gpg}). Package-private: only sops is given them. */
    byte[] pgpSecretRing() {
        int size = pgpSecretKeys.stream().mapToInt(k -> k.length).sum();
        byte[] ring = new byte[size];
        int at = 0;
        for (byte[] k : pgpSecretKeys) {
            System.arraycopy(k, 0, ring, at, k.length);
            at += k.length;
        }
        return ring;
    }

    /** A digest of the keys, to tell one set of keys from another (what a decryption is cached by); keyed like the marker. */
    String fingerprint() { return marker("windlass decryption keys".getBytes(StandardCharsets.UTF_8)); }

    /**
     * {@code sops:hmac-sha256:<12 hex>}: an HMAC-SHA256 of {@code value} under a key derived from these keys, its first 12
     * hex digits. It changes when the value changes, is the same on every replica holding the same keys, and tells
     * nothing of the value to whoever does not hold them (a plain hash of a short password could be guessed).
     */
    public String marker(byte[] value) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(markerKey, "HmacSHA256"));
            return "sops:hmac-sha256:" + HexFormat.of().formatHex(mac.doFinal(value)).substring(0, 12);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    @Override public String toString() { return ageIdentities.size() + " age and " + pgpSecretKeys.size() + " OpenPGP key(s)"; }

    private static byte[] markerKey(List<String> age, List<byte[]> pgp) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update("windlass sops marker key\n".getBytes(StandardCharsets.UTF_8));
            for (String a : age.stream().sorted().toList()) d.update((a + "\n").getBytes(StandardCharsets.UTF_8));
            for (byte[] k : pgp) {
                d.update(k);
                d.update((byte) '\n');
            }
            return d.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private static List<String> ageIdentities(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            String l = line.strip();
            if (l.startsWith(AGE_PREFIX)) out.add(l);
        }
        return out;
    }

    /** Each armored private key block of {@code text} without its armor; null when a block is not well-formed. */
    static List<byte[]> pgpSecretKeys(String text) {
        List<byte[]> out = new ArrayList<>();
        int from = 0;
        while (true) {
            int begin = text.indexOf(PGP_BEGIN, from);
            if (begin < 0) return out;
            int end = text.indexOf(PGP_END, begin);
            if (end < 0) return null;
            byte[] key = dearmor(text.substring(begin + PGP_BEGIN.length(), end));
            if (key == null) return null;
            out.add(key);
            from = end + PGP_END.length();
        }
    }

    /** The body of an armored block (RFC 4880 section 6.2): armor headers, a blank line, base64, a {@code =} checksum line. */
    private static byte[] dearmor(String block) {
        String[] lines = block.split("\\R", -1);
        StringBuilder base64 = new StringBuilder();
        boolean body = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (!body) {
                // Armor headers ("Comment: ...") run up to the first blank line.
                if (line.isEmpty()) body = true;
                else if (!line.contains(": ")) {
                    body = true;
                    base64.append(line);
                }
                continue;
            }
            if (line.startsWith("=")) break;  // the CRC-24 checksum
            base64.append(line);
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(base64.toString());
            return bytes.length == 0 ? null : bytes;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
