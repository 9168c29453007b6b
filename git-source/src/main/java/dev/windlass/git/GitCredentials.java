package dev.windlass.git;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;

/**
 * HTTP basic-auth credentials for the remote. They come only from the process environment (or files it names),
 * never from the repository, so a commit can't redirect where the engine authenticates.
 */
public record GitCredentials(String username, String password, Path passwordFile) {

    public static final String TOKEN = "WINDLASS_GIT_TOKEN";
    public static final String TOKEN_FILE = "WINDLASS_GIT_TOKEN_FILE";
    public static final String USERNAME = "WINDLASS_GIT_USERNAME";
    public static final String PASSWORD = "WINDLASS_GIT_PASSWORD";
    public static final String PASSWORD_FILE = "WINDLASS_GIT_PASSWORD_FILE";

    /** Git hosts accept a token as the password of any user; this name is the one they document. */
    public static final String TOKEN_USERNAME = "x-access-token";

    public GitCredentials {
        if (username == null || username.isEmpty()) throw new IllegalArgumentException("username is empty");
        if (password == null || password.isEmpty()) throw new IllegalArgumentException("password is empty");
    }

    /** Credentials given as values: they stay as they are for the life of the process. */
    public GitCredentials(String username, String password) { this(username, password, null); }

    /**
     * Reads credentials through {@code env} (usually {@code System::getenv}). A token wins over a password; setting
     * both a variable and its {@code _FILE} twin, or a username with nothing to go with it, is a configuration error.
     */
    public static Optional<GitCredentials> fromEnvironment(Function<String, String> env) {
        Optional<String> username = value(env, USERNAME);
        Optional<String> token = secret(env, TOKEN, TOKEN_FILE);
        if (token.isPresent()) {
            return Optional.of(new GitCredentials(username.orElse(TOKEN_USERNAME), token.get(), file(env, TOKEN_FILE)));
        }
        Optional<String> password = secret(env, PASSWORD, PASSWORD_FILE);
        if (username.isPresent() && password.isPresent()) {
            return Optional.of(new GitCredentials(username.get(), password.get(), file(env, PASSWORD_FILE)));
        }
        if (username.isPresent() || password.isPresent()) {
            throw new IllegalArgumentException(USERNAME + " and " + PASSWORD + " (or " + PASSWORD_FILE
                    + ") must be set together");
        }
        return Optional.empty();
    }

    /**
     * For a password read from a file (a mounted Secret), a provider that reads the file again each time the remote
     * asks, so that a rotated Secret takes effect on the next fetch or push without a restart. A file that cannot be
     * read at that moment (mid-rotation) leaves the last password read in use.
     */
    CredentialsProvider provider() {
        if (passwordFile == null) return new UsernamePasswordCredentialsProvider(username, password);
        return new RereadingCredentials(username, passwordFile, password);
    }

    private static Path file(Function<String, String> env, String fileName) {
        return value(env, fileName).map(Path::of).orElse(null);
    }

    /** Never prints the secret: records end up in log lines. */
    @Override public String toString() {
        return "GitCredentials[username=" + username + ", password=***" + (passwordFile == null ? "" : ", from " + passwordFile) + "]";
    }

    private static Optional<String> secret(Function<String, String> env, String name, String fileName) {
        Optional<String> direct = value(env, name);
        Optional<String> file = value(env, fileName);
        if (direct.isPresent() && file.isPresent()) {
            throw new IllegalArgumentException("set only one of " + name + " and " + fileName);
        }
        return direct.or(() -> file.map(path -> readSecretFile(fileName, Path.of(path))));
    }

    private static String readSecretFile(String variable, Path path) {
        try {
            // Mounted secrets usually end with a newline that is not part of the secret.
            String content = Files.readString(path, StandardCharsets.UTF_8).strip();
            if (content.isEmpty()) throw new IllegalArgumentException(variable + " points to an empty file: " + path);
            return content;
        } catch (IOException e) {
            throw new UncheckedIOException(variable + " points to an unreadable file: " + path, e);
        }
    }

    private static Optional<String> value(Function<String, String> env, String name) {
        return Optional.ofNullable(env.apply(name)).filter(v -> !v.isBlank());
    }
}
