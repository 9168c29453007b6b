package dev.windlass.git;

import java.io.IOException;

/**
 * The remote could not be reached, refused the credentials or broke the protocol. Separate from other
 * {@link IOException}s because callers retry these on the next poll, while a local failure means a damaged mirror.
 */
public final class RemoteAccessException extends IOException {

    RemoteAccessException(String operation, GitRemote remote, Exception cause) {
        super(operation + " " + remote.url() + " failed: " + detail(remote, cause) + hint(remote, cause), cause);
    }

    /** JGit prefixes its messages with the URL, which the message already starts with. */
    private static String detail(GitRemote remote, Exception cause) {
        String message = String.valueOf(cause.getMessage());
        String prefix = remote.url() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static String hint(GitRemote remote, Exception cause) {
        String message = String.valueOf(cause.getMessage()).toLowerCase(java.util.Locale.ROOT);
        boolean authProblem = message.contains("auth") || message.contains("401") || message.contains("403");
        if (!authProblem || !remote.isHttp()) return "";
        return remote.credentials().isPresent()
                ? " (check the credentials in " + GitCredentials.TOKEN + " or " + GitCredentials.USERNAME + "/"
                        + GitCredentials.PASSWORD + ")"
                : " (no credentials configured: set " + GitCredentials.TOKEN + " or " + GitCredentials.TOKEN_FILE + ")";
    }
}
