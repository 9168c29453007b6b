package dev.windlass.engine.lease;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/**
 * A replica's identity: the pod's name (or the host's) and a random part, so two processes on one host are two
 * replicas. It is the holder identity of its Leases and the {@code Windlass-Replica} of its status commits.
 */
public final class ReplicaIdentity {
    private ReplicaIdentity() {}

    /** A new identity for this process: {@code <host>_<8 hex digits>}. */
    public static String generate() {
        return host() + "_" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * {@code $HOSTNAME} (a pod's name), else the host's name; only letters, digits, {@code .} and {@code -} are kept
     * (others become {@code -}), so the identity can be written as a commit trailer; {@code localhost} if none is known.
     */
    public static String host() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = null;
            }
        }
        if (host == null || host.isBlank()) return "localhost";
        String clean = host.strip().replaceAll("[^A-Za-z0-9.-]", "-");
        clean = clean.length() > 200 ? clean.substring(0, 200) : clean;
        return Character.isLetterOrDigit(clean.charAt(0)) ? clean : "h" + clean;
    }
}
