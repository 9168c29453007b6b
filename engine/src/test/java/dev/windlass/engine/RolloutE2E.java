package dev.windlass.engine;

/** The rollout scenarios on sandbox clusters. */
class RolloutE2E extends RolloutContract {
    @Override boolean real() { return false; }
}
