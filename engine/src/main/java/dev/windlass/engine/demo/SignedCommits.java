package dev.windlass.engine.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo's platform team, signing its commits as a team does: an SSH key made by the real {@code ssh-keygen}, listed
 * in an {@code allowed_signers} file the engine is given (never the repo), and commits signed and pushed by the real
 * {@code git}. The bench signs its pushes with it too.
 */
public final class SignedCommits {

    private final Path key;
    private final Path trusted;
    private final Path clone;

    private SignedCommits(Path key, Path trusted, Path clone) {
        this.key = key;
        this.trusted = trusted;
        this.clone = clone;
    }

    /** Why the demo cannot show it here (no git or ssh-keygen on the PATH), or null. */
    public static String unavailable() {
        for (String tool : List.of("git", "ssh-keygen")) {
            try {
                Process p = new ProcessBuilder(tool, tool.equals("git") ? "--version" : "-?").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                return tool + " is not on the PATH";
            }
        }
        return null;
    }

    /** A new ed25519 key in {@code dir}, trusted for {@code email} in {@code dir}/trusted/allowed_signers, and a clone of origin. */
    public static SignedCommits make(Path dir, String email, Path origin) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("trusted"));
        Path key = dir.resolve("platform-key");
        run(dir, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", email, "-f", key.toString());
        String pub = Files.readString(Path.of(key + ".pub"), StandardCharsets.UTF_8).trim();
        Files.writeString(dir.resolve("trusted/allowed_signers"), email + " namespaces=\"git\" " + pub + "\n");
        // The origin's own housekeeping after a push would repack under the engine's in-process readers of it.
        run(dir, "git", "--git-dir", origin.toString(), "config", "receive.autogc", "false");
        Path clone = dir.resolve("clone");
        run(dir, "git", "clone", "-q", "--branch", "main", origin.toString(), clone.toString());
        return new SignedCommits(key, dir.resolve("trusted"), clone);
    }

    /** The directory the engine is given: {@code --trusted-keys DIR}. */
    public Path trusted() { return trusted; }

    public Path key() { return key; }

    /** Replaces {@code find} by {@code replace} in {@code path}, commits signed by the platform key, pushes; the commit id. */
    public String commitAndPush(String path, String find, String replace, String message) throws IOException, InterruptedException {
        git("pull", "-q", "--ff-only", "origin", "main");
        Path file = clone.resolve(path);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (!text.contains(find)) throw new IOException(path + " does not contain '" + find + "'");
        Files.writeString(file, text.replace(find, replace), StandardCharsets.UTF_8);
        git("-c", "gpg.format=ssh", "-c", "user.signingkey=" + key + ".pub", "commit", "-q", "-S", "-am", message);
        git("push", "-q", "origin", "HEAD:main");
        return git("rev-parse", "HEAD").trim();
    }

    /** Writes {@code files} (path to content), commits them signed by the platform key, pushes; the commit id. */
    public String writeAndPush(java.util.Map<String, String> files, String message) throws IOException, InterruptedException {
        return write(files, true, message);
    }

    /** Commits {@code files} unsigned (a push from someone without the key), pushes; the commit id. */
    public String writeUnsignedAndPush(java.util.Map<String, String> files, String message) throws IOException, InterruptedException {
        return write(files, false, message);
    }

    private String write(java.util.Map<String, String> files, boolean signed, String message) throws IOException, InterruptedException {
        git("pull", "-q", "--ff-only", "origin", "main");
        for (var f : files.entrySet()) {
            Path file = clone.resolve(f.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, f.getValue(), StandardCharsets.UTF_8);
            git("add", f.getKey());
        }
        if (signed) git("-c", "gpg.format=ssh", "-c", "user.signingkey=" + key + ".pub", "commit", "-q", "-S", "-m", message);
        else git("commit", "-q", "-m", message);
        git("push", "-q", "origin", "HEAD:main");
        return git("rev-parse", "HEAD").trim();
    }

    private String git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=Platform Team", "-c", "user.email=platform@example.com",
                "-c", "commit.gpgsign=false"));
        command.addAll(List.of(args));
        return run(clone, command.toArray(String[]::new));
    }

    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Path err = Files.createTempFile("demo-" + command[0], ".err");
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within 60 s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): " + Files.readString(err).strip());
            }
            return out;
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
