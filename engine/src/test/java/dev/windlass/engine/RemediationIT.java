package dev.windlass.engine;

/**
 * The control-plane remediation scenarios on real control planes: a node goes not ready because its kubelet stopped,
 * and the marks Windlass puts are on real Node objects.
 */
class RemediationIT extends RemediationContract {
    @Override boolean real() { return true; }
}
