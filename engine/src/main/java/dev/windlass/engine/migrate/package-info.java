/**
 * {@code windlass import}: the Flux and Argo CD objects of a repo written out as native Windlass objects, on a branch of
 * their own, checked by rendering both readings.
 */
package dev.windlass.engine.migrate;
