package dev.windlass.engine.cli;

import dev.windlass.git.TrustedKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where {@code windlass run} gets its trusted keys: a directory ({@code --trusted-keys}), a Secret in the engine's
 * namespace ({@code --trusted-keys-secret}), or both. Both are gathered into one private directory (the Secret's
 * {@code *.asc} keys as files of their own, both {@code allowed_signers} one after the other) and read from there once,
 * at start.
 */
final class TrustedKeySources {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,200}");

    private TrustedKeySources() {}

    /**
     * @param directory  the keys' directory, or null
     * @param secret     the Secret's data by key, or null
     * @param secretName how to name the Secret in errors ({@code namespace/name})
     * @param scratch    an empty private directory to gather both in
     */
    static TrustedKeys load(Path directory, Map<String, byte[]> secret, String secretName, Path scratch) throws IOException {
        if (secret == null) return TrustedKeys.load(directory);
        if (directory != null) {
            try (Stream<Path> files = Files.list(directory)) {
                for (Path f : files.sorted().toList()) {
                    String name = f.getFileName().toString();
                    if (!Files.isRegularFile(f)) continue;
                    if (name.endsWith(".asc")) Files.copy(f, scratch.resolve("dir-" + name));
                    else if (name.equals(TrustedKeys.ALLOWED_SIGNERS)) append(scratch, Files.readAllBytes(f));
                }
            }
        }
        SortedMap<String, byte[]> entries = new TreeMap<>(secret);
        for (var e : entries.entrySet()) {
            String key = e.getKey();
            if (!NAME.matcher(key).matches()) throw new IOException("Secret " + secretName + ": key '" + key + "' is not a file name");
            if (key.endsWith(".asc")) Files.write(scratch.resolve("secret-" + key), e.getValue());
            else if (key.equals(TrustedKeys.ALLOWED_SIGNERS)) append(scratch, e.getValue());
            else {
                throw new IOException("Secret " + secretName + ": key '" + key + "' is neither an OpenPGP public key (*.asc) nor "
                        + TrustedKeys.ALLOWED_SIGNERS + "; remove it or rename it");
            }
        }
        return TrustedKeys.load(scratch);
    }

    /** A new directory only this process's user may read, for {@link #load}. */
    static Path scratch() throws IOException {
        return Files.createTempDirectory("windlass-trusted-keys", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    private static void append(Path scratch, byte[] content) throws IOException {
        Path signers = scratch.resolve(TrustedKeys.ALLOWED_SIGNERS);
        Files.write(signers, content, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (content.length > 0 && content[content.length - 1] != '\n') Files.write(signers, new byte[] {'\n'}, StandardOpenOption.APPEND);
    }
}
