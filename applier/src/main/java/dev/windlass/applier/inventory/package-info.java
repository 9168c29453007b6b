/**
 * Each cluster's own record of what Windlass applied there for each application (a ConfigMap in
 * {@code windlass-system}), written before anything is applied so that nothing is ever applied unrecorded.
 */
package dev.windlass.applier.inventory;
