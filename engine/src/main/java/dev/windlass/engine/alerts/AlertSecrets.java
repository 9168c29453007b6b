package dev.windlass.engine.alerts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The credentials of Providers, from a folder given to the engine ({@code --alerts-secrets-dir}): one folder per
 * Secret, one file per key, as Kubernetes mounts a Secret as a volume ({@code <dir>/<secretRef>/address}, {@code token},
 * {@code hmacKey}). Nothing outside that folder is read: the name is a Secret name (checked by the parser) and neither
 * it nor the key may be a link.
 */
public final class AlertSecrets {
    public static final AlertSecrets NONE = new AlertSecrets(null);

    private final Path dir;

    public AlertSecrets(Path dir) { this.dir = dir; }

    /** The value of {@code key} in Secret {@code name}, stripped of surrounding white space; empty when there is none. */
    public Optional<String> value(String name, String key) throws IOException {
        if (dir == null || name == null) return Optional.empty();
        Path folder = dir.resolve(name).normalize();
        if (!folder.startsWith(dir.normalize()) || !folder.getParent().equals(dir.normalize())) return Optional.empty();
        Path file = folder.resolve(key);
        // Kubernetes mounts a Secret's keys as links into a timestamped folder of the same volume: follow those only.
        if (!Files.exists(file)) return Optional.empty();
        Path real = file.toRealPath();
        if (!real.startsWith(dir.toRealPath())) throw new IOException("Secret " + name + " key " + key + " points outside " + dir);
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) return Optional.empty();
        String value = Files.readString(real, StandardCharsets.UTF_8).strip();
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** Whether a folder was given at all. */
    public boolean given() { return dir != null; }

    @Override public String toString() { return dir == null ? "(no secrets folder)" : dir.toString(); }
}
