package dev.windlass.engine;

/**
 * The rollout scenarios on real control planes: the waves' health comes from the real deployment controller, kwok's
 * kubelets and the scheduler.
 */
class RolloutIT extends RolloutContract {
    @Override boolean real() { return true; }
}
