package dev.windlass.git;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.URIish;

/**
 * Where the config repository lives and how to authenticate. {@code url} is always a {@code file://},
 * {@code http://} or {@code https://} URL; a plain local path given to the constructor is turned into a file URL.
 */
public record GitRemote(String url, Optional<GitCredentials> credentials) {

    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://.*");
    // user@host:path is the scp-like ssh syntax; it is not a local path even though it parses as one.
    private static final Pattern SCP_LIKE = Pattern.compile("^[^/\\\\]+@[^/\\\\]+:.*");

    public GitRemote {
        url = toUrl(url);
        credentials = credentials == null ? Optional.empty() : credentials;
    }

    /** A remote with credentials read through {@code env} (see {@link GitCredentials#fromEnvironment}). */
    public static GitRemote of(String urlOrPath, Function<String, String> env) {
        return new GitRemote(urlOrPath, GitCredentials.fromEnvironment(env));
    }

    /** A remote with credentials from the real process environment. */
    public static GitRemote fromEnvironment(String urlOrPath) {
        return of(urlOrPath, System::getenv);
    }

    public static GitRemote anonymous(String urlOrPath) {
        return new GitRemote(urlOrPath, Optional.empty());
    }

    public boolean isHttp() {
        return url.startsWith("http://") || url.startsWith("https://");
    }

    URIish uri() {
        try {
            return new URIish(url);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("validated url no longer parses: " + url, e);
        }
    }

    /** Null when anonymous, which is what JGit expects for "no credentials". */
    CredentialsProvider credentialsProvider() {
        return credentials.map(GitCredentials::provider).orElse(null);
    }

    private static String toUrl(String urlOrPath) {
        if (urlOrPath == null || urlOrPath.isBlank()) throw new IllegalArgumentException("remote url is empty");
        String s = urlOrPath.strip();
        var scheme = SCHEME.matcher(s);
        if (scheme.matches()) {
            String name = scheme.group(1).toLowerCase(Locale.ROOT);
            if (!name.equals("file") && !name.equals("http") && !name.equals("https")) {
                throw new IllegalArgumentException("unsupported remote scheme " + name + "://, use https:// or file://");
            }
            URI uri = URI.create(s);
            if (uri.getUserInfo() != null) {
                // Secrets in the URL leak into logs and config files; the env vars are the one way in.
                throw new IllegalArgumentException("remote url must not contain credentials; set "
                        + GitCredentials.TOKEN + " or " + GitCredentials.USERNAME + "/" + GitCredentials.PASSWORD);
            }
            return s;
        }
        if (SCP_LIKE.matcher(s).matches()) {
            throw new IllegalArgumentException("ssh remotes are not supported, use https:// instead of " + s);
        }
        return Path.of(s).toAbsolutePath().normalize().toUri().toString();
    }

    @Override public String toString() {
        return "GitRemote[" + url + (credentials.isPresent() ? ", user=" + credentials.get().username() : "") + "]";
    }
}
