/** Which clusters an application goes to: selector and names, then a stable choice under {@code maxClusters}. */
package dev.windlass.policy.placement;
