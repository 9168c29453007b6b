package dev.windlass.engine;

/**
 * The failover scenarios on real control planes: clusters whose API server is stopped, nodes whose kubelets stop (the
 * node-lifecycle controller marks them not ready), and rollouts that pass their progress deadline because every node
 * is cordoned; health comes from the real controllers.
 */
class FailoverIT extends FailoverContract {
    @Override boolean real() { return true; }
}
