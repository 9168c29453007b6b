package dev.windlass.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitRemoteTest {

    @TempDir Path tmp;

    @Test void tokenIsSentAsPasswordOfTheTokenUser() {
        GitRemote remote = GitRemote.of("https://git.example.com/fleet.git", Map.of("WINDLASS_GIT_TOKEN", "t0k")::get);

        assertEquals(Optional.of(new GitCredentials("x-access-token", "t0k")), remote.credentials());
    }

    @Test void tokenFileIsReadWithoutItsTrailingNewline() throws Exception {
        Path file = Files.writeString(tmp.resolve("token"), "from-file\n");

        GitRemote remote = GitRemote.of("https://h/r.git", Map.of("WINDLASS_GIT_TOKEN_FILE", file.toString())::get);

        assertEquals("from-file", remote.credentials().orElseThrow().password());
    }

    @Test void usernameReplacesTheTokenUser() {
        var env = Map.of("WINDLASS_GIT_TOKEN", "t0k", "WINDLASS_GIT_USERNAME", "bot");

        assertEquals(new GitCredentials("bot", "t0k"), GitRemote.of("https://h/r.git", env::get).credentials().get());
    }

    @Test void usernameWithPasswordFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("pw"), "hunter2");
        var env = Map.of("WINDLASS_GIT_USERNAME", "alice", "WINDLASS_GIT_PASSWORD_FILE", file.toString());

        assertEquals(new GitCredentials("alice", "hunter2", file), GitRemote.of("https://h/r.git", env::get).credentials().get());
    }

    @Test void nothingSetMeansAnonymous() {
        assertEquals(Optional.empty(), GitRemote.of("https://h/r.git", Map.<String, String>of()::get).credentials());
    }

    @Test void ambiguousOrIncompleteVariablesAreRejected() {
        var both = Map.of("WINDLASS_GIT_TOKEN", "a", "WINDLASS_GIT_TOKEN_FILE", "/b");
        var userOnly = Map.of("WINDLASS_GIT_USERNAME", "alice");
        var missingFile = Map.of("WINDLASS_GIT_TOKEN_FILE", tmp.resolve("absent").toString());

        assertThrows(IllegalArgumentException.class, () -> GitRemote.of("https://h/r.git", both::get));
        assertThrows(IllegalArgumentException.class, () -> GitRemote.of("https://h/r.git", userOnly::get));
        assertThrows(RuntimeException.class, () -> GitRemote.of("https://h/r.git", missingFile::get));
    }

    @Test void localPathBecomesAFileUrl() {
        GitRemote remote = GitRemote.anonymous(tmp.resolve("origin.git").toString());

        assertEquals(tmp.resolve("origin.git").toUri().toString(), remote.url());
        assertTrue(remote.url().startsWith("file:/"));
        assertFalse(remote.isHttp());
    }

    @Test void unsupportedOrSecretCarryingUrlsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> GitRemote.anonymous("ssh://git@h/r.git"));
        assertThrows(IllegalArgumentException.class, () -> GitRemote.anonymous("git@github.com:org/r.git"));
        assertThrows(IllegalArgumentException.class, () -> GitRemote.anonymous("https://u:secret@h/r.git"));
    }

    @Test void printingNeverShowsTheSecret() {
        GitRemote remote = GitRemote.of("https://h/r.git", Map.of("WINDLASS_GIT_TOKEN", "s3cr3t")::get);

        assertFalse(remote.toString().contains("s3cr3t"));
        assertFalse(remote.credentials().orElseThrow().toString().contains("s3cr3t"));
    }
}
