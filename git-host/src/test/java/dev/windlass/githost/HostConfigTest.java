package dev.windlass.githost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostConfigTest {

    private static final URI API = URI.create("https://api.github.com");

    @Test
    void toStringNeverShowsTheToken() {
        HostConfig config = new HostConfig(HostKind.github, API, "acme/fleet", "ghp_s3cr3tvalue");

        assertFalse(config.toString().contains("ghp_s3cr3tvalue"), config.toString());
        assertEquals("HostConfig[kind=github, apiUrl=https://api.github.com, repository=acme/fleet, token=(set)]",
                config.toString());
    }

    @Test
    void aBlankTokenIsNoToken() {
        assertNull(new HostConfig(HostKind.gitea, API, "acme/fleet", " \n").token());
        assertEquals("abc", new HostConfig(HostKind.gitea, API, "acme/fleet", "abc\n").token());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet", "acme/", "/fleet", "acme/fleet/extra", "acme/../fleet", "../fleet", "acme/..",
            "acme fleet/x", "acme/fleet?x=1"})
    void repositoryMustBeOwnerSlashName(String repository) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HostConfig(HostKind.github, API, repository, null));
        assertTrue(e.getMessage().contains("owner/name"), e.getMessage());
    }

    @Test
    void credentialsInTheApiUrlAreRefusedWithoutEchoingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new HostConfig(
                HostKind.gitea, URI.create("https://bot:hunter2@git.example.com/api/v1"), "acme/fleet", null));
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    }

    @Test
    void aTokenWithInnerWhitespaceIsRefusedWithoutEchoingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HostConfig(HostKind.github, API, "acme/fleet", "abc def"));
        assertFalse(e.getMessage().contains("abc def"), e.getMessage());
    }
}
