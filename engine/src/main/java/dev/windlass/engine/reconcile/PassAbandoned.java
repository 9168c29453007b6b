package dev.windlass.engine.reconcile;

import java.io.IOException;

/**
 * A pass did not start, or stopped, because this replica may not write (its write fence refused: another replica holds
 * the lease, or this one did not renew it in time). Nothing more was written to a cluster or the status branch; the
 * next pass this replica runs reads the status again.
 */
public final class PassAbandoned extends IOException {
    public PassAbandoned(String message) {
        super(message);
    }
}
