package dev.windlass.render;

import dev.windlass.policy.diff.ContentHash;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decrypts a SOPS-encrypted file with the real sops ({@link RenderTools#sops()}), behind the same boundary as every render
 * ({@link ToolRun}: the render sandbox, the concurrency, time and output limits, an environment of its own). The
 * encrypted bytes are given on sops' standard input and the plaintext read from its standard output: neither is written to
 * disk. The keys are given as {@code SOPS_AGE_KEY} and, for OpenPGP, a secret keyring in a GnuPG home made in the run's
 * own temporary folder, which is deleted when the run ends.
 *
 * <p>What sops says when it fails is never passed on (its MAC mismatch names a digest of the plaintext): a failure is a
 * {@link Problem}, and a message made of it and of the recipients the file names (public keys).
 */
public final class SopsDecryptor implements AutoCloseable {

    /** How sops reads and writes the file ({@code --input-type}, {@code --output-type}). */
    public enum Format {
        YAML("yaml"), JSON("json"), DOTENV("dotenv");

        private final String word;

        Format(String word) { this.word = word; }

        /** The format of a file named {@code path}: by its extension, YAML when it has none sops knows. */
        public static Format of(String path) {
            if (path.endsWith(".json")) return JSON;
            if (path.endsWith(".env")) return DOTENV;
            return YAML;
        }
    }

    /** Why a file could not be decrypted. */
    public enum Problem {
        /** The engine was given no key at all. */
        NO_KEYS,
        /** None of the engine's keys is one the file was encrypted for. */
        NO_MATCHING_KEY,
        /** The file was changed after it was encrypted: a value or its MAC does not check out. */
        TAMPERED,
        /** The file has no sops metadata, or is not the format it was read as. */
        NOT_ENCRYPTED,
        /** sops is not installed, could not run, or was stopped at a limit. */
        TOOL
    }

    /** What came of a decryption. */
    public sealed interface Result {
        /** @param plain the decrypted file, as sops printed it in the same format */
        record Decrypted(byte[] plain) implements Result {
            @Override public String toString() { return "Decrypted[" + plain.length + " bytes]"; }
        }

        /** @param message what is wrong and how to fix it, naming no plaintext */
        record Failed(Problem problem, String message) implements Result {}
    }

    private static final int CACHED = 256;
    private static final Pattern AGE_RECIPIENT = Pattern.compile("\"?recipient\"?\\s*[:=]\\s*\"?(age1[0-9a-z]+)");
    private static final Pattern PGP_FINGERPRINT = Pattern.compile("\"?fp\"?\\s*[:=]\\s*\"?([0-9A-Fa-f]{16,40})");

    private final RenderTools tools;
    private final ToolRun runs;
    private final java.util.concurrent.atomic.AtomicLong toolRuns = new java.util.concurrent.atomic.AtomicLong();
    /** By ciphertext, format and keys: what decrypting it gave. Kept in memory only. */
    private final Map<String, Result> cache = new LinkedHashMap<>(CACHED, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Result> eldest) { return size() > CACHED; }
    };

    public SopsDecryptor(RenderTools tools, RenderLimits limits, RenderSandbox.Mode sandbox) {
        this.tools = tools;
        this.runs = new ToolRun(limits, new RenderSandbox(sandbox, tools));
    }

    /** A decryptor with the tools, limits and sandbox every render of this engine has. */
    public static SopsDecryptor fromEnvironment() {
        return new SopsDecryptor(RenderTools.fromEnvironment(), RenderLimits.DEFAULT, RenderAccess.fromEnvironment().sandbox());
    }

    /** How many times sops ran: decryptions that were not cached. */
    public long toolRuns() { return toolRuns.get(); }

    @Override public void close() { runs.stopAll(); }

    /** {@code encrypted} decrypted with {@code keys}; the same answer, without running sops, for the same file and keys. */
    public Result decrypt(byte[] encrypted, Format format, DecryptionKeys keys) {
        if (keys.isEmpty()) {
            return new Result.Failed(Problem.NO_KEYS, "it is encrypted with SOPS" + recipients(encrypted) + ", and this engine has no decryption"
                    + " key; give the engine the private key it was encrypted for (windlass run --decryption-keys DIR holding *.agekey or"
                    + " *.asc files; with deploy/, the Secret windlass-sops-keys), see docs/secrets.md");
        }
        String key = ContentHash.sha256(format + "\n" + keys.fingerprint() + "\n" + ContentHash.sha256(new String(encrypted, StandardCharsets.ISO_8859_1)));
        synchronized (cache) {
            Result known = cache.get(key);
            if (known != null) return known;
        }
        Result result = run(encrypted, format, keys);
        if (!(result instanceof Result.Failed f && f.problem() == Problem.TOOL)) {
            synchronized (cache) {
                cache.put(key, result);
            }
        }
        return result;
    }

    private Result run(byte[] encrypted, Format format, DecryptionKeys keys) {
        String missing = RenderTools.missing(tools.sops());
        if (missing != null) return new Result.Failed(Problem.TOOL, missing);
        Path work;
        try {
            work = Files.createTempDirectory("windlass-sops-");
        } catch (IOException e) {
            return new Result.Failed(Problem.TOOL, "cannot make a directory to run sops in (" + e.getClass().getSimpleName() + ")");
        }
        try {
            Path home = Files.createDirectories(work.resolve("home"));
            Map<String, String> env = new LinkedHashMap<>();
            // Never the gpg binary: its agent would outlive the run. sops reads the secret keyring itself.
            env.put("SOPS_GPG_EXEC", "/nonexistent/gpg");
            if (keys.ageCount() > 0) env.put("SOPS_AGE_KEY", keys.ageKeyEnv());
            if (keys.pgpCount() > 0) {
                Path gnupg = Files.createDirectories(home.resolve(".gnupg"));
                Files.setPosixFilePermissions(gnupg, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
                Files.write(gnupg.resolve("secring.gpg"), keys.pgpSecretRing());
                env.put("GNUPGHOME", gnupg.toString());
            }
            List<String> command = List.of(tools.sops().toString(), "--disable-version-check", "decrypt", "--input-type", format.word,
                    "--output-type", format.word);
            toolRuns.incrementAndGet();
            ToolRun.Outcome outcome = runs.run(command, work, work, home, env, RenderSandbox.Reach.LOCAL, encrypted);
            if (outcome.ok()) return new Result.Decrypted(outcome.stdout().getBytes(StandardCharsets.UTF_8));
            if (outcome.stopped() != null) return new Result.Failed(Problem.TOOL, "sops " + outcome.stopped());
            return failed(outcome.exit(), outcome.stderr(), encrypted);
        } catch (IOException e) {
            return new Result.Failed(Problem.TOOL, "cannot prepare the keys for sops (" + e.getClass().getSimpleName() + ")");
        } finally {
            LiveRenders.delete(work);
        }
    }

    /** What a failed sops run means, by its exit status (sops' cmd/sops/codes), never in its own words. */
    private static Result failed(int exit, String stderr, byte[] encrypted) {
        return switch (exit) {
            case 128 -> new Result.Failed(Problem.NO_MATCHING_KEY, "none of this engine's decryption keys opens it: it is encrypted for"
                    + recipients(encrypted).replaceFirst("^ for", "") + "; give the engine one of those private keys, or re-encrypt the file"
                    + " for a key the engine has (sops updatekeys after adding it to .sops.yaml)");
            case 51, 52, 24, 25 -> new Result.Failed(Problem.TAMPERED, "it was changed after it was encrypted: "
                    + (exit == 51 || exit == 52 ? "its MAC does not match its content" : "a value does not decrypt (its authentication tag fails)")
                    + "; restore the file as sops wrote it, or edit it with sops (sops edit FILE) so that it is encrypted again");
            case 2, 4 -> new Result.Failed(Problem.NOT_ENCRYPTED, "sops cannot read it as an encrypted file; encrypt it with sops -e, or"
                    + " restore it as sops wrote it");
            default -> new Result.Failed(stderr.contains("sops metadata not found") ? Problem.NOT_ENCRYPTED : Problem.TOOL,
                    "sops could not decrypt it (exit " + exit + ")");
        };
    }

    /** " for age1..., PGP key ABCD..." as the file names its recipients, or "" when it names none. */
    static String recipients(byte[] encrypted) {
        String text = new String(encrypted, StandardCharsets.UTF_8);
        Set<String> found = new LinkedHashSet<>();
        Matcher a = AGE_RECIPIENT.matcher(text);
        while (a.find()) found.add(a.group(1));
        Matcher p = PGP_FINGERPRINT.matcher(text);
        while (p.find()) found.add("OpenPGP key " + p.group(1).toUpperCase(java.util.Locale.ROOT));
        if (found.isEmpty()) return "";
        List<String> named = new ArrayList<>(found);
        return " for " + String.join(", ", named);
    }
}
