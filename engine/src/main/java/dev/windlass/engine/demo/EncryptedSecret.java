package dev.windlass.engine.demo;

import dev.windlass.render.RenderTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The demo's encrypted Secret, made as a team makes one: an age key by the real {@code age-keygen}, the Secret encrypted
 * by the real {@code sops}, the key given to the engine and never to Git. It also checks what the demo shows of it: the
 * value reached the cluster, and no status commit holds it. The value itself is never printed. The bench encrypts its
 * fleet's Secrets with it too.
 */
public final class EncryptedSecret {

    /** Where the Secret goes in the demo's repo: an object of the api application. */
    static final String PATH = "apps/api/manifests/db-secret.yaml";

    private final Path keys;
    private final String password;
    private final String recipient;
    private final RenderTools tools;

    private EncryptedSecret(Path keys, String password, String recipient, RenderTools tools) {
        this.keys = keys;
        this.password = password;
        this.recipient = recipient;
        this.tools = tools;
    }

    /** Why the demo cannot show it here (the tools are not built), or null. */
    public static String unavailable(RenderTools tools) {
        Path ageKeygen = tools.sops().resolveSibling("age-keygen");
        if (!Files.isExecutable(tools.sops()) || !Files.isExecutable(ageKeygen)) {
            return "sops and age-keygen are not built here (scripts/render-tools.sh builds them)";
        }
        return null;
    }

    /** A new age key in {@code keys}/demo.agekey, made by age-keygen, and a random password to keep. */
    public static EncryptedSecret make(Path keys, RenderTools tools) throws IOException, InterruptedException {
        Files.createDirectories(keys);
        Path key = keys.resolve("demo.agekey");
        Files.deleteIfExists(key);
        run(keys, null, tools.sops().resolveSibling("age-keygen").toString(), "-o", key.toString());
        String recipient = Files.readAllLines(key).stream().filter(l -> l.startsWith("# public key: ")).map(l -> l.substring(14).trim())
                .findFirst().orElseThrow(() -> new IOException("age-keygen wrote no public key to " + key));
        return new EncryptedSecret(keys, java.util.UUID.randomUUID().toString(), recipient, tools);
    }

    public Path keys() { return keys; }

    String recipient() { return recipient; }

    /** The Secret as sops encrypts it for the key: only stringData is encrypted, the rest stays readable. */
    String encrypted() throws IOException, InterruptedException {
        return encrypt("apiVersion: v1\nkind: Secret\nmetadata:\n  name: api-db\n  namespace: api\nstringData:\n  password: " + password + "\n");
    }

    /** {@code plain} (a YAML document) as sops encrypts it for the key: only data and stringData, the rest readable. */
    public String encrypt(String plain) throws IOException, InterruptedException {
        return run(keys, plain, tools.sops().toString(), "--encrypt", "--age", recipient, "--encrypted-regex", "^(data|stringData)$",
                "--input-type", "yaml", "--output-type", "yaml", "/dev/stdin");
    }

    /** Whether the Secret holds the password (in data, base64, as an API server keeps it; or as the stringData sent). */
    boolean holds(io.fabric8.kubernetes.api.model.Secret secret) {
        String data = secret.getData() == null ? null : secret.getData().get("password");
        if (data != null) return new String(java.util.Base64.getDecoder().decode(data), StandardCharsets.UTF_8).equals(password);
        return secret.getStringData() != null && password.equals(secret.getStringData().get("password"));
    }

    /** How many status commits were read, and how many of their files hold the password in any of its forms. */
    int[] inStatusBranch(Path origin, String statusBranch) throws IOException {
        List<String> forms = List.of(password, java.util.Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8)));
        int commits = 0;
        int holding = 0;
        try (Git git = Git.open(origin.toFile())) {
            for (RevCommit c : git.log().add(git.getRepository().resolve("refs/heads/" + statusBranch)).call()) {
                commits++;
                if (forms.stream().anyMatch(c.getFullMessage()::contains)) holding++;
                try (TreeWalk walk = new TreeWalk(git.getRepository())) {
                    walk.addTree(c.getTree());
                    walk.setRecursive(true);
                    while (walk.next()) {
                        String text = new String(git.getRepository().open(walk.getObjectId(0)).getBytes(), StandardCharsets.UTF_8);
                        if (forms.stream().anyMatch(text::contains)) holding++;
                    }
                }
            }
        } catch (org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IOException("cannot read " + statusBranch + " of " + origin, e);
        }
        return new int[] {commits, holding};
    }

    private static String run(Path dir, String input, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().remove("SOPS_AGE_KEY");
        pb.environment().remove("SOPS_AGE_KEY_FILE");
        Path err = Files.createTempFile(dir, "demo-tool", ".err");
        try {
            Process p = pb.redirectError(err.toFile()).start();
            try (var in = p.getOutputStream()) {
                if (input != null) in.write(input.getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command[0] + " did not finish within 60 s");
            }
            if (p.exitValue() != 0) {
                List<String> said = new ArrayList<>(Files.readAllLines(err));
                throw new IOException(Path.of(command[0]).getFileName() + " failed (exit " + p.exitValue() + "): "
                        + String.join(" ", said.subList(0, Math.min(3, said.size()))));
            }
            return out;
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
