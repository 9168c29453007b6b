package dev.windlass.render;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Which hosts a render may fetch from: a chart repository, an OCI registry or a remote base on a public address. One on a
 * loopback, link-local, private, shared or unspecified address (the engine's host, an in-cluster service, a cloud's
 * metadata address) is refused unless the engine allows private hosts ({@link RenderAccess#privateHosts()}); a
 * {@code file:} URL always is.
 */
final class RemoteHosts {

    private static final long RESOLVE_MILLIS = 5_000;

    private RemoteHosts() {}

    /** Why a render may not fetch {@code source}, or null when it may. */
    static String refusal(String source, boolean privateHosts) {
        if (source.regionMatches(true, 0, "file:", 0, 5)) return source + " is a file URL, which a render never follows";
        String host = host(source);
        if (host == null || host.isEmpty()) return source + " names no host";
        if (privateHosts) return null;
        List<InetAddress> addresses = resolve(host);
        for (InetAddress a : addresses) {
            if (isPrivate(a)) {
                return source + " is on " + (a.getHostAddress().equals(host) ? "" : host + " = ") + a.getHostAddress()
                        + ", a loopback, link-local or private address: the engine fetches from those only when started with"
                        + " --render-allow=private-hosts";
            }
        }
        return null;
    }

    /** The host a chart repository URL, an OCI reference or a remote base names. */
    static String host(String source) {
        String s = source.strip();
        if (s.startsWith("git@")) {
            int colon = s.indexOf(':');
            return colon > 4 ? s.substring(4, colon).toLowerCase(Locale.ROOT) : null;
        }
        if (!s.contains("://")) s = "https://" + s;
        try {
            String h = URI.create(s.replace(" ", "%20")).getHost();
            if (h == null) return null;
            return (h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The host's addresses; none when it cannot be resolved in time (the tool then says why it cannot reach it). */
    private static List<InetAddress> resolve(String host) {
        CompletableFuture<List<InetAddress>> lookup = CompletableFuture.supplyAsync(() -> {
            try {
                return List.of(InetAddress.getAllByName(host));
            } catch (java.net.UnknownHostException e) {
                return List.of();
            }
        });
        try {
            return lookup.get(RESOLVE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            return List.of();
        }
    }

    static boolean isPrivate(InetAddress a) {
        if (a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isAnyLocalAddress() || a.isMulticastAddress()) {
            return true;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) return true;                                    // fc00::/7, unique local
            boolean mapped = true;                                                     // ::ffff:a.b.c.d
            for (int i = 0; i < 10; i++) mapped &= b[i] == 0;
            if (mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                try {
                    return isPrivate(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
                } catch (java.net.UnknownHostException e) {
                    return true;
                }
            }
            return false;
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        return first == 0 || (first == 100 && second >= 64 && second < 128) || (first == 192 && second == 0 && (b[2] & 0xff) == 0)
                || first >= 240;
    }
}
