package dev.windlass.engine;

/**
 * The tracking scenarios on a real control plane (server-side apply, the garbage collector and namespace controller
 * running), so the sandbox cannot flatter them.
 */
class TrackingIT extends TrackingContract {
    @Override boolean real() { return true; }
}
