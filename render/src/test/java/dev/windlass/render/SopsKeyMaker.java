package dev.windlass.render;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real keys and real ciphertext for the tests, made at test time by the real tools: age-keygen and sops pinned by
 * {@code scripts/render-tools.sh}, and the host's gpg ({@code gpg --batch --quick-gen-key}, no passphrase, in a GnuPG
 * home of the test's own, its agent stopped by {@link #close()}).
 */
public final class SopsKeyMaker implements AutoCloseable {
    private final Path dir;
    private final RenderTools tools = RenderTools.fromEnvironment();
    private Path gnupg;

    public SopsKeyMaker(Path dir) {
        this.dir = dir;
        for (Path tool : List.of(tools.sops(), ageKeygen())) {
            if (!Files.isExecutable(tool)) throw new IllegalStateException(tool + " is missing: run scripts/render-tools.sh");
        }
    }

    private Path ageKeygen() { return tools.sops().resolveSibling("age-keygen"); }

    /** An age key made by age-keygen: its file ({@code <name>.agekey}) and its public key. */
    public record AgeKey(Path file, String recipient) {}

    public AgeKey age(String name) throws Exception {
        Path file = dir.resolve(name + ".agekey");
        run(Map.of(), null, ageKeygen().toString(), "-o", file.toString());
        String recipient = run(Map.of(), null, ageKeygen().toString(), "-y", file.toString()).strip();
        return new AgeKey(file, recipient);
    }

    /** An OpenPGP key made by gpg: its fingerprint, and its secret key exported armored as {@code <name>.asc}. */
    public record PgpKey(Path file, String fingerprint) {}

    public PgpKey pgp(String name) throws Exception {
        if (gnupg == null) {
            gnupg = Files.createDirectories(dir.resolve("gnupg"));
            Files.setPosixFilePermissions(gnupg, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        }
        Map<String, String> env = Map.of("GNUPGHOME", gnupg.toString());
        String uid = name + " <" + name + "@windlass.test>";
        run(env, null, "gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key", uid, "default", "default", "never");
        String listed = run(env, null, "gpg", "--batch", "--with-colons", "--list-secret-keys", uid);
        String fpr = listed.lines().filter(l -> l.startsWith("fpr:")).findFirst().orElseThrow().split(":")[9];
        Path file = dir.resolve(name + ".asc");
        Files.writeString(file, run(env, null, "gpg", "--batch", "--armor", "--pinentry-mode", "loopback", "--passphrase", "",
                "--export-secret-keys", fpr));
        return new PgpKey(file, fpr);
    }

    /**
     * {@code plain} encrypted by sops for {@code recipients} (age1... or OpenPGP fingerprints), with
     * {@code --encrypted-regex '^(data|stringData)$'} as Flux's guide says for Secrets.
     */
    public String encrypt(String plain, String format, String... recipients) throws Exception {
        List<String> command = new ArrayList<>(List.of(tools.sops().toString(), "--disable-version-check", "encrypt", "--input-type", format,
                "--output-type", format, "--filename-override", "secret." + format));
        if (format.equals("yaml") || format.equals("json")) command.addAll(List.of("--encrypted-regex", "^(data|stringData)$"));
        List<String> age = new ArrayList<>();
        List<String> pgp = new ArrayList<>();
        for (String r : recipients) (r.startsWith("age1") ? age : pgp).add(r);
        if (!age.isEmpty()) command.addAll(List.of("--age", String.join(",", age)));
        if (!pgp.isEmpty()) command.addAll(List.of("--pgp", String.join(",", pgp)));
        return run(gnupg == null ? Map.of() : Map.of("GNUPGHOME", gnupg.toString()), plain, command.toArray(String[]::new));
    }

    /** {@code command} run to its end, its standard output; a failure fails the test with what it said. */
    private String run(Map<String, String> env, String input, String... command) throws Exception {
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile());
        b.environment().putAll(env);
        Path err = Files.createTempFile(dir, "err", ".txt");
        b.redirectError(err.toFile());
        Process p = b.start();
        try (var in = p.getOutputStream()) {
            if (input != null) in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + Files.readString(err));
        }
        Files.delete(err);
        return out;
    }

    /** Stops the gpg-agent the key generation started. */
    @Override public void close() throws Exception {
        if (gnupg != null) run(Map.of("GNUPGHOME", gnupg.toString()), null, "gpgconf", "--kill", "gpg-agent");
    }
}
