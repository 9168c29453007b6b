package dev.windlass.engine.reconcile;

import java.io.IOException;

/**
 * A pass applied nothing because no revision of the config branch has passed the signature check yet: the refusal is
 * recorded on the status branch and the pass counts as failed, but it is the repo's state, not the engine's fault, so
 * it is logged once per tip, without a stack trace.
 */
public final class NothingVerified extends IOException {
    public NothingVerified(String message) {
        super(message);
    }
}
