package dev.windlass.engine.alerts;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Which addresses a Provider may be sent to: not loopback, link-local (169.254/16, fe80::/10, where cloud metadata
 * answers), private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), unspecified or multicast, unless the engine
 * allows private addresses. A host name is resolved and refused if any of its addresses is refused. The repo can never
 * widen this; only the engine's flag can.
 */
public final class AddressGuard {
    /** Resolves a host name to its addresses (the system resolver, or a test's). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final boolean allowPrivate;
    private final Resolver resolver;

    public AddressGuard(boolean allowPrivate, Resolver resolver) {
        this.allowPrivate = allowPrivate;
        this.resolver = resolver;
    }

    public static AddressGuard system(boolean allowPrivate) { return new AddressGuard(allowPrivate, InetAddress::getAllByName); }

    /** Why {@code address} may not be called, or empty when it may. */
    public Optional<String> refusal(URI address) {
        String host = address.getHost();
        if (host == null) return Optional.of("it names no host");
        if (allowPrivate) return Optional.empty();
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] all;
        try {
            all = resolver.resolve(bare);
        } catch (UnknownHostException e) {
            return Optional.of("its host " + bare + " does not resolve");
        }
        for (InetAddress a : all) {
            String why = privateKind(a);
            if (why != null) {
                String named = a.getHostAddress().equals(bare) ? bare : bare + " (" + a.getHostAddress() + ")";
                return Optional.of(named + " is " + why + "; the engine sends alerts only to public addresses unless it runs with "
                        + "--alerts-allow-private-addresses");
            }
        }
        return Optional.empty();
    }

    /** What kind of non-public address {@code a} is, or null when it is public. */
    static String privateKind(InetAddress a) {
        if (a instanceof Inet6Address v6) {
            byte[] b = v6.getAddress();
            boolean mapped = true;
            for (int i = 0; i < 10; i++) mapped &= b[i] == 0;
            mapped &= (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
            if (mapped) {
                try {
                    return privateKind(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
                } catch (UnknownHostException impossible) {
                    return "an address that cannot be read";
                }
            }
            if ((b[0] & 0xfe) == 0xfc) return "a private address (fc00::/7)";
        }
        if (a.isLoopbackAddress()) return "a loopback address";
        if (a.isLinkLocalAddress()) return "a link-local address (where cloud metadata services answer)";
        if (a.isSiteLocalAddress()) return "a private address";
        if (a.isAnyLocalAddress()) return "the unspecified address";
        if (a.isMulticastAddress()) return "a multicast address";
        if (a instanceof Inet4Address) {
            byte[] b = a.getAddress();
            if ((b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64) return "a shared (carrier-grade NAT) address";
            if ((b[0] & 0xff) == 0) return "an address of this network (0.0.0.0/8)";
        }
        return null;
    }
}
