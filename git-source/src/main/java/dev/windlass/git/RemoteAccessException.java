package dev.windlass.git;

import java.io.IOException;
import java.util.OptionalInt;
import org.eclipse.jgit.transport.http.HttpConnection;

/**
 * The remote could not be reached, refused the credentials or broke the protocol. Separate from other
 * {@link IOException}s because callers retry these on the next poll, while a local failure means a damaged mirror.
 */
public final class RemoteAccessException extends IOException {

    /** @param httpStatus the status of the remote's last HTTP response, if it gave one */
    RemoteAccessException(String operation, GitRemote remote, Exception cause, OptionalInt httpStatus) {
        super(operation + " " + remote.url() + " failed: " + detail(remote, cause) + hint(remote, httpStatus), cause);
    }

    /** JGit prefixes its messages with the URL, which the message already starts with (wording only: nothing is decided by it). */
    private static String detail(GitRemote remote, Exception cause) {
        String message = String.valueOf(cause.getMessage());
        String prefix = remote.url() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** A login refused (401) or a service refused to these credentials (403): by the status the server answered. */
    private static String hint(GitRemote remote, OptionalInt httpStatus) {
        int status = httpStatus.orElse(-1);
        boolean refused = status == HttpConnection.HTTP_UNAUTHORIZED || status == HttpConnection.HTTP_FORBIDDEN;
        if (!refused || !remote.isHttp()) return "";
        return remote.credentials().isPresent()
                ? " (check the credentials in " + GitCredentials.TOKEN + " or " + GitCredentials.USERNAME + "/"
                        + GitCredentials.PASSWORD + ")"
                : " (no credentials configured: set " + GitCredentials.TOKEN + " or " + GitCredentials.TOKEN_FILE + ")";
    }
}
