package dev.windlass.applier.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Tells apart why a request to a cluster failed, because callers react differently: an unreachable cluster
 * ends the pass for that cluster, a server error is retried next pass, a rejected object waits for a fix in Git.
 */
public final class Failures {

    public enum Kind {
        /** No answer at all: connection refused or reset, timeout, DNS, TLS. */
        Unreachable,
        /** The server answered but could not serve: 408, 429, 5xx. */
        ServerError,
        /** The client could not work out where to send the request, e.g. a kind the cluster does not serve (yet). */
        Unresolved,
        /** The server refused this request: 4xx other than 408 and 429 (validation, forbidden, conflict). */
        Rejected,
        /**
         * The request was never made: the client could not write the object as a request (a value its types cannot
         * hold, such as a count past int32). Says nothing about the cluster; the same object fails the same way.
         */
        Unsendable;

        /** True when a later pass may succeed without a change in Git. */
        public boolean transientFailure() { return this != Rejected && this != Unsendable; }
    }

    private Failures() {}

    public static Kind classify(Throwable failure) {
        if (unsendable(failure) != null) return Kind.Unsendable;
        if (ioCause(failure) != null) return Kind.Unreachable;
        if (failure instanceof KubernetesClientException k) {
            int code = k.getCode();
            if (code == 408 || code == 429 || code >= 500) return Kind.ServerError;
            if (code >= 400) return Kind.Rejected;
            return Kind.Unresolved;
        }
        return Kind.Unresolved;
    }

    /** A short message for people: what went wrong, with the server's own words when it gave any. */
    public static String describe(Throwable failure) {
        if (unsendable(failure) != null) {
            return "the object cannot be written as a request: a value does not fit the field's type; fix it in Git";
        }
        Throwable io = ioCause(failure);
        if (io != null) {
            // The client wraps the informative exception in generic ones; name the most specific in the chain.
            for (Throwable t = io; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof ConnectException) return "connection refused";
                if (t instanceof UnknownHostException) return "unknown host " + t.getMessage();
                if (t instanceof SSLException) return "TLS failure: " + t.getMessage();
                if (isTimeout(t)) return "request timed out";
                if (t instanceof InterruptedException) return "interrupted";
            }
            return "connection failed: " + io.getMessage();
        }
        if (failure instanceof KubernetesClientException k && k.getCode() > 0) {
            String said = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage() : "";
            return "HTTP " + k.getCode() + (said.isEmpty() ? "" : ": " + said);
        }
        return String.valueOf(failure.getMessage());
    }

    /** A cause that says the client could not write or read the object itself (JSON processing), or null. */
    private static Throwable unsendable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof com.fasterxml.jackson.core.JsonProcessingException) return t;
        }
        return null;
    }

    /** The first cause that means the request never got an answer, or null. */
    private static Throwable ioCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException || t instanceof InterruptedException || isTimeout(t)) return t;
        }
        return null;
    }

    /**
     * The HTTP client's deadlines are {@link TimeoutException}s (its request timeout) or, from the network library under
     * it, subclasses of {@value #NETWORK_TIMEOUT} (read and write timeouts), which is only on the runtime class path.
     */
    private static boolean isTimeout(Throwable t) {
        if (t instanceof TimeoutException) return true;
        for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals(NETWORK_TIMEOUT)) return true;
        }
        return false;
    }

    private static final String NETWORK_TIMEOUT = "io.netty.handler.timeout.TimeoutException";
}
