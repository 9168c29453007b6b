package dev.windlass.engine;

import java.util.function.Function;

/** The tracking scenarios on sandbox clusters (client-side apply). */
class TrackingE2E extends TrackingContract {
    @Override Function<TestFleet, Backend> backend() { return SandboxBackend::new; }
}
