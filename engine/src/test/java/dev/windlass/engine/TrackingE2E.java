package dev.windlass.engine;

/** The tracking scenarios on sandbox clusters (client-side apply). */
class TrackingE2E extends TrackingContract {
    @Override boolean real() { return false; }
}
