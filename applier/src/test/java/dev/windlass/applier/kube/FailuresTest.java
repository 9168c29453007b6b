package dev.windlass.applier.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Transient or terminal, from the answer the cluster gave (or did not give). */
class FailuresTest {

    @ParameterizedTest(name = "HTTP {0} is {1}")
    @CsvSource({"400, Rejected", "403, Rejected", "404, Rejected", "409, Rejected", "422, Rejected",
            "408, ServerError", "429, ServerError", "500, ServerError", "503, ServerError"})
    void statusCodes(int code, Failures.Kind expected) {
        var failure = new KubernetesClientException("failed", code, new StatusBuilder().withCode(code).withMessage("said so").build());

        assertEquals(expected, Failures.classify(failure));
        assertEquals(expected != Failures.Kind.Rejected, expected.transientFailure());
        assertEquals("HTTP " + code + ": said so", Failures.describe(failure));
    }

    @Test void noAnswerIsUnreachable() {
        var refused = new KubernetesClientException("list failed",
                new IOException("Connection refused: localhost/127.0.0.1:1", new ConnectException("refused")));
        var timedOut = new KubernetesClientException("list failed", new TimeoutException("The timeout period of 10000ms has been exceeded"));

        assertEquals(Failures.Kind.Unreachable, Failures.classify(refused));
        assertEquals("connection refused", Failures.describe(refused));
        assertEquals(Failures.Kind.Unreachable, Failures.classify(timedOut));
        assertEquals("request timed out", Failures.describe(timedOut));
        assertTrue(Failures.Kind.Unreachable.transientFailure());
    }

    /** The network library under the HTTP client times out reads with its own exception type, not a TimeoutException. */
    @Test void aReadTimeoutOfTheNetworkLibraryIsUnreachable() {
        var readTimedOut = new KubernetesClientException("get failed", io.netty.handler.timeout.ReadTimeoutException.INSTANCE);

        assertEquals(Failures.Kind.Unreachable, Failures.classify(readTimedOut));
        assertEquals("request timed out", Failures.describe(readTimedOut));
    }

    @Test void kindTheClientCannotPlaceIsUnresolved() {
        var failure = new KubernetesClientException("Could not find the metadata for the given apiVersion and kind");

        assertEquals(Failures.Kind.Unresolved, Failures.classify(failure));
        assertTrue(Failures.Kind.Unresolved.transientFailure());
        assertFalse(Failures.describe(failure).isEmpty());
    }

    /** A value the client's types cannot hold fails in the client, before any request: not the cluster's doing. */
    @Test void anObjectTheClientCannotWriteIsUnsendableNotUnreachable() {
        var overflow = new KubernetesClientException("create failed",
                new com.fasterxml.jackson.databind.exc.InvalidFormatException(null, "out of range", "99999999999", Integer.class));

        assertEquals(Failures.Kind.Unsendable, Failures.classify(overflow));
        assertFalse(Failures.Kind.Unsendable.transientFailure(), "the same object fails the same way");
        assertEquals("the object cannot be written as a request: a value does not fit the field's type; fix it in Git", Failures.describe(overflow));
    }
}
