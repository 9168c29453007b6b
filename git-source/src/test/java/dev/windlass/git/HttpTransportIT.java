package dev.windlass.git;

import static dev.windlass.git.StatusWriterTest.change;
import static dev.windlass.git.StatusWriterTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same mirror and writers against a smart-HTTP remote that demands basic auth, as hosted Git services do. */
class HttpTransportIT {

    static final String TOKEN = "s3cret-token";

    @TempDir Path tmp;
    Origin origin;
    GitHttpServer server;
    String url;

    @BeforeEach void startServer() throws Exception {
        origin = Origin.create(tmp);
        origin.commit("main", Map.of("clusters/prod.yaml", "name: prod\n"), "config");

        server = GitHttpServer.start(tmp, TOKEN);
        url = server.url("origin.git");
    }

    @AfterEach void stopServer() throws Exception {
        server.close();
        origin.close();
    }

    @Test void fetchUsesTheTokenFromTheEnvironment() throws Exception {
        try (Mirror mirror = Mirror.open(tmp.resolve("mirror"), remoteWithToken(TOKEN))) {
            FetchOutcome outcome = mirror.fetch();

            assertTrue(outcome.changed("main"));
            String tip = mirror.resolve("main").orElseThrow();
            assertEquals(origin.tip("main").orElseThrow(), tip);
            assertEquals("name: prod\n", text(mirror.snapshot(tip).read("clusters/prod.yaml")));
        }
    }

    @Test void fetchWithoutCredentialsFailsNamingTheVariableToSet() throws Exception {
        try (Mirror mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.of(url, Map.<String, String>of()::get))) {
            RemoteAccessException e = assertThrows(RemoteAccessException.class, mirror::fetch);

            assertTrue(e.getMessage().contains(url), e.getMessage());
            assertTrue(e.getMessage().contains(GitCredentials.TOKEN), e.getMessage());
            assertTrue(mirror.listBranches().isEmpty());
        }
    }

    @Test void fetchWithAWrongTokenFails() throws Exception {
        try (Mirror mirror = Mirror.open(tmp.resolve("mirror"), remoteWithToken("wrong"))) {
            RemoteAccessException e = assertThrows(RemoteAccessException.class, mirror::fetch);

            assertTrue(e.getMessage().contains("check the credentials"), e.getMessage());
            assertFalse(e.getMessage().contains("wrong"), "the secret stays out of the message");
        }
    }

    /** A server that knows the token but refuses it the repository answers 403: the same hint, by the status. */
    @Test void aForbiddenFetchPointsAtTheCredentials() throws Exception {
        server.forbidAll();
        try (Mirror mirror = Mirror.open(tmp.resolve("mirror"), remoteWithToken(TOKEN))) {
            RemoteAccessException e = assertThrows(RemoteAccessException.class, mirror::fetch);

            assertTrue(e.getMessage().contains("check the credentials"), e.getMessage());
            assertFalse(e.getMessage().contains(TOKEN), "the secret stays out of the message");
        }
    }

    /** A repository that is not there is not a credentials problem, even when its name has "auth" in it. */
    @Test void aMissingRepositoryIsNotBlamedOnTheCredentials() throws Exception {
        String missing = server.url("authorization-401.git");
        try (Mirror mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.of(missing, Map.of(GitCredentials.TOKEN, TOKEN)::get))) {
            RemoteAccessException e = assertThrows(RemoteAccessException.class, mirror::fetch);

            assertTrue(e.getMessage().contains(missing), e.getMessage());
            assertFalse(e.getMessage().contains("check the credentials"), e.getMessage());
        }
    }

    @Test void statusWriterPushesOverHttp() throws Exception {
        try (Mirror mirror = Mirror.open(tmp.resolve("mirror"), remoteWithToken(TOKEN));
                Mirror other = Mirror.open(tmp.resolve("other"), remoteWithToken(TOKEN))) {
            StatusWriter writer = new StatusWriter(mirror);

            String first = assertInstanceOf(CommitOutcome.Committed.class,
                    writer.write(change("one").write("status/a.yaml", "a\n"))).commit();
            String second = assertInstanceOf(CommitOutcome.Committed.class,
                    new StatusWriter(other).write(change("two").write("status/b.yaml", "b\n"))).commit();

            assertEquals(Optional.of(second), origin.tip(StatusWriter.DEFAULT_BRANCH));
            assertEquals(first, origin.commitAt(second).getParent(0).name());
            assertEquals(Map.of("status/a.yaml", "a\n", "status/b.yaml", "b\n"), origin.files(StatusWriter.DEFAULT_BRANCH));
            assertEquals("b\n", text(writer.readStatus("status/b.yaml").orElseThrow()));
        }
    }

    /** A token mounted from a Secret is a file; when the Secret is rotated, the next fetch and push use the new token. */
    @Test void aTokenFileIsReadAgainSoARotatedTokenTakesEffectWithoutARestart() throws Exception {
        Path tokenFile = tmp.resolve("token");
        java.nio.file.Files.writeString(tokenFile, TOKEN + "\n");
        try (Mirror mirror = Mirror.open(tmp.resolve("mirror"), GitRemote.of(url, Map.of(GitCredentials.TOKEN_FILE, tokenFile.toString())::get))) {
            assertTrue(mirror.fetch().changed("main"));

            server.acceptOnly("rotated-token");
            RemoteAccessException refused = assertThrows(RemoteAccessException.class, mirror::fetch);
            assertFalse(refused.getMessage().contains(TOKEN), "the secret stays out of the message");

            java.nio.file.Files.writeString(tokenFile, "rotated-token\n");
            origin.commit("main", Map.of("clusters/prod.yaml", "name: prod\nregion: eu\n"), "region");
            assertTrue(mirror.fetch().changed("main"), "fetched with the rotated token");
            assertInstanceOf(CommitOutcome.Committed.class, new StatusWriter(mirror).write(change("after rotation").write("status/a.yaml", "a\n")));
        }
    }

    private GitRemote remoteWithToken(String token) {
        return GitRemote.of(url, Map.of(GitCredentials.TOKEN, token)::get);
    }
}
