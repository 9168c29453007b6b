package dev.windlass.engine;

/** The control-plane remediation scenarios on sandbox clusters. */
class RemediationE2E extends RemediationContract {
    @Override boolean real() { return false; }
}
