package dev.windlass.engine;

/** The suspension and freeze scenarios on sandbox clusters. */
class SuspensionE2E extends SuspensionContract {
    @Override boolean real() { return false; }
}
