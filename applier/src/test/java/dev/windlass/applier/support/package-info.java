/**
 * Test support: in-process mock API servers speaking real HTTP, and builders for manifests and actions,
 * shared by the applier's tests.
 */
package dev.windlass.applier.support;
