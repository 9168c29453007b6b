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

    @Test void kindTheClientCannotPlaceIsUnresolved() {
        var failure = new KubernetesClientException("Could not find the metadata for the given apiVersion and kind");

        assertEquals(Failures.Kind.Unresolved, Failures.classify(failure));
        assertTrue(Failures.Kind.Unresolved.transientFailure());
        assertFalse(Failures.describe(failure).isEmpty());
    }
}
