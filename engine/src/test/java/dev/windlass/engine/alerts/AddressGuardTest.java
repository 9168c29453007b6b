package dev.windlass.engine.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class AddressGuardTest {
    /** Names as a resolver answers them here: no DNS in a unit test. */
    static final Map<String, String> NAMES = Map.of("metadata.example.test", "169.254.169.254", "inside.example.test", "10.0.0.1",
            "public.example.test", "93.184.215.14", "me.example.test", "127.0.0.1");

    static InetAddress[] resolve(String host) throws UnknownHostException {
        String ip = NAMES.getOrDefault(host, host);
        if (!ip.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) throw new UnknownHostException(host);
        return new InetAddress[] {InetAddress.getByName(ip)};
    }

    static final AddressGuard STRICT = new AddressGuard(false, AddressGuardTest::resolve);

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/x", "http://169.254.169.254/latest/meta-data", "https://10.0.0.1/", "http://172.16.3.4/",
            "http://192.168.1.1/", "http://[::1]/", "http://[fc00::1]/", "http://[fd12:3456::1]/", "http://[fe80::1]/", "http://[::ffff:10.0.0.1]/",
            "http://0.0.0.0/", "http://100.64.0.1/", "http://metadata.example.test/", "http://inside.example.test/", "http://me.example.test:9000/hook"})
    void privateAddressesAndNamesResolvingToThemAreRefused(String url) {
        Optional<String> refusal = STRICT.refusal(URI.create(url));
        assertTrue(refusal.isPresent(), url);
        assertTrue(refusal.get().endsWith("; the engine sends alerts only to public addresses unless it runs with --alerts-allow-private-addresses"), refusal.get());
    }

    @Test
    void aNameIsRefusedWithTheAddressItResolvedTo() {
        assertEquals("metadata.example.test (169.254.169.254) is a link-local address (where cloud metadata services answer); the engine sends alerts only "
                + "to public addresses unless it runs with --alerts-allow-private-addresses", STRICT.refusal(URI.create("https://metadata.example.test/x")).orElseThrow());
        assertEquals("10.0.0.1 is a private address; the engine sends alerts only to public addresses unless it runs with --alerts-allow-private-addresses",
                STRICT.refusal(URI.create("https://10.0.0.1/")).orElseThrow());
    }

    @Test
    void publicAddressesPassAndTheFlagAllowsPrivateOnes() {
        assertEquals(Optional.empty(), STRICT.refusal(URI.create("https://public.example.test/hook")));
        assertEquals(Optional.empty(), STRICT.refusal(URI.create("https://93.184.215.14/hook")));
        AddressGuard allowing = new AddressGuard(true, AddressGuardTest::resolve);
        assertEquals(Optional.empty(), allowing.refusal(URI.create("http://127.0.0.1:8080/x")));
        assertEquals(Optional.empty(), allowing.refusal(URI.create("http://169.254.169.254/")));
    }

    @Test
    void aNameThatDoesNotResolveIsRefused() {
        assertEquals("its host nowhere.example.test does not resolve", STRICT.refusal(URI.create("https://nowhere.example.test/")).orElseThrow());
    }
}
