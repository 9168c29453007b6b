package dev.windlass.engine;

/** The suspension and freeze scenarios on real control planes (server-side apply, the real deployment controller). */
class SuspensionIT extends SuspensionContract {
    @Override boolean real() { return true; }
}
