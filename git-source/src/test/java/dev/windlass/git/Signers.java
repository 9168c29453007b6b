package dev.windlass.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Real signing keys made at test time by the real tools, and a work tree whose commits the real {@code git} signs with
 * them: OpenPGP keys by {@code gpg --batch --quick-gen-key} in a GnuPG home of its own, SSH keys by {@code ssh-keygen
 * -t ed25519}. The trusted directory gets what an operator would put there: {@code gpg --armor --export} output as
 * {@code *.asc}, and an {@code allowed_signers} file.
 */
public final class Signers implements AutoCloseable {
    public final Path gnupgHome;
    public final Path trusted;
    public final Path work;
    private final Path home;
    private final Path dir;

    public Signers(Path dir) throws IOException, InterruptedException {
        this.dir = dir;
        // gpg-agent's socket path must stay short: a home of its own under /tmp.
        this.gnupgHome = Files.createTempDirectory("gnupg");
        Files.setPosixFilePermissions(gnupgHome, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        this.trusted = Files.createDirectories(dir.resolve("trusted"));
        this.home = Files.createDirectories(dir.resolve("home"));
        this.work = dir.resolve("work");
        Files.createDirectories(work);
        git("init", "-q", "-b", "main", ".");
    }

    /** A new OpenPGP key for {@code email}; returns its fingerprint (upper-case hex). */
    public String gpgKey(String name, String email) throws IOException, InterruptedException {
        run(dir, List.of("gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key",
                name + " <" + email + ">", "ed25519", "sign", "never"));
        String colons = run(dir, List.of("gpg", "--batch", "--with-colons", "--list-keys", email));
        for (String line : colons.split("\n")) if (line.startsWith("fpr:")) return line.split(":")[9];
        throw new IOException("no fingerprint for " + email + ": " + colons);
    }

    /** Puts {@code fingerprint}'s public key into the trusted directory as {@code file}. */
    public void trustGpg(String fingerprint, String file) throws IOException, InterruptedException {
        Files.writeString(trusted.resolve(file), run(dir, List.of("gpg", "--batch", "--armor", "--export", fingerprint)));
    }

    /** Revokes the key with the revocation certificate gpg made along with it. */
    public void revokeGpg(String fingerprint) throws IOException, InterruptedException {
        Path cert = gnupgHome.resolve("openpgp-revocs.d").resolve(fingerprint + ".rev");
        // gpg writes the certificate with a ':' before its armour line, so that it is not imported by mistake.
        String text = Files.readString(cert).replace(":-----BEGIN PGP PUBLIC KEY BLOCK-----", "-----BEGIN PGP PUBLIC KEY BLOCK-----");
        Path ready = dir.resolve(fingerprint + ".rev");
        Files.writeString(ready, text);
        run(dir, List.of("gpg", "--batch", "--import", ready.toString()));
    }

    /** A new SSH key (ed25519, no passphrase); returns the private key's path ({@code .pub} beside it). */
    public Path sshKey(String name) throws IOException, InterruptedException {
        Path key = dir.resolve("ssh-" + name);
        run(dir, List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key.toString()));
        return key;
    }

    /** Adds {@code key}'s public half to the trusted allowed_signers file for {@code principal}. */
    public void trustSsh(Path key, String principal) throws IOException {
        String pub = Files.readString(Path.of(key + ".pub")).trim();
        Files.writeString(trusted.resolve(TrustedKeys.ALLOWED_SIGNERS), principal + " namespaces=\"git\" " + pub + "\n",
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    /** How a commit is signed: not at all, by a GnuPG key (fingerprint), or by an SSH key (private key path). */
    public sealed interface Signing permits None, Gpg, Ssh {}
    public record None() implements Signing {}
    public record Gpg(String fingerprint) implements Signing {}
    public record Ssh(Path key) implements Signing {}
    public static final Signing UNSIGNED = new None();

    /** Writes {@code files} in the work tree and commits everything, signed as said; returns the commit id. */
    public String commit(String message, Signing signing, Map<String, String> files) throws IOException, InterruptedException {
        for (var e : files.entrySet()) {
            Path p = work.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue());
        }
        git("add", "-A");
        List<String> args = new ArrayList<>(signingArgs(signing));
        args.addAll(List.of("commit", "-q", "--allow-empty", "-m", message));
        if (!(signing instanceof None)) args.add("-S");
        git(args.toArray(String[]::new));
        return git("rev-parse", "HEAD").trim();
    }

    /** Runs git in the work tree, as the test's developer, with {@code signing}'s keys; returns what it printed. */
    public String git(Signing signing, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(signingArgs(signing));
        all.addAll(List.of(args));
        return git(all.toArray(String[]::new));
    }

    public String git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=Dev", "-c", "user.email=dev@example.com",
                "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"));
        command.addAll(List.of(args));
        return run(work, command);
    }

    private static List<String> signingArgs(Signing signing) {
        if (signing instanceof Gpg g) return List.of("-c", "gpg.format=openpgp", "-c", "gpg.program=gpg", "-c", "user.signingkey=" + g.fingerprint());
        if (signing instanceof Ssh s) return List.of("-c", "gpg.format=ssh", "-c", "user.signingkey=" + s.key() + ".pub");
        return List.of();
    }

    /**
     * Makes a copy of {@code commit} whose message is {@code message} and whose signature header is kept as it was: a
     * commit altered after it was signed. Returns the new commit's id (written into the work tree's objects).
     */
    public String tampered(String commit, String message) throws IOException, InterruptedException {
        String raw = git("cat-file", "commit", commit);
        int body = raw.indexOf("\n\n");
        String changed = raw.substring(0, body + 2) + message + "\n";
        Path file = dir.resolve("tampered-" + commit);
        Files.writeString(file, changed);
        return git("hash-object", "-t", "commit", "-w", file.toString()).trim();
    }

    private String run(Path cwd, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(false);
        Map<String, String> env = pb.environment();
        env.put("GNUPGHOME", gnupgHome.toString());
        env.put("HOME", home.toString());
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_COMMITTER_DATE", "2026-11-20T10:00:00Z");
        env.put("GIT_AUTHOR_DATE", "2026-11-20T10:00:00Z");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException(String.join(" ", command) + " failed: " + Files.readString(err));
        return out;
    }

    /** Stops the gpg-agent the signing started and removes the GnuPG home. */
    @Override public void close() throws IOException, InterruptedException {
        try {
            run(dir, List.of("gpgconf", "--kill", "gpg-agent"));
        } catch (IOException ignored) {
            // no agent was started
        }
        try (var files = Files.walk(gnupgHome)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
