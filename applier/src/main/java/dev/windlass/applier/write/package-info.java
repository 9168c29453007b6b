/**
 * Executing one action on one cluster: client-side apply by three-way JSON merge patch, server-side apply,
 * deletes and implicit objects, each ending in an {@code ActionResult} rather than an exception.
 */
package dev.windlass.applier.write;
