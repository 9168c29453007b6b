/** What the clusters look like right now, as reported by the applier: reachability, live objects with health, nodes. */
package dev.windlass.policy.observe;
