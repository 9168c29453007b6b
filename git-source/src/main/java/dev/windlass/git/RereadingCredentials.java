package dev.windlass.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.errors.UnsupportedCredentialItem;
import org.eclipse.jgit.transport.CredentialItem;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;

/** A user name with a password read from a file each time the remote asks for it (see {@link GitCredentials#provider()}). */
final class RereadingCredentials extends CredentialsProvider {
    private final String username;
    private final Path file;
    private volatile String lastRead;

    RereadingCredentials(String username, Path file, String firstRead) {
        this.username = username;
        this.file = file;
        this.lastRead = firstRead;
    }

    @Override public boolean isInteractive() { return false; }

    @Override public boolean supports(CredentialItem... items) { return current().supports(items); }

    @Override public boolean get(URIish uri, CredentialItem... items) throws UnsupportedCredentialItem {
        return current().get(uri, items);
    }

    private CredentialsProvider current() {
        try {
            String read = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!read.isEmpty()) lastRead = read;
        } catch (IOException e) {
            // mid-rotation, or gone: the last password read is the best there is; the remote says whether it still works
        }
        return new UsernamePasswordCredentialsProvider(username, lastRead);
    }
}
