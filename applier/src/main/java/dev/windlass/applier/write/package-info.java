/**
 * Executing one action on one cluster: client-side apply by three-way JSON merge patch, server-side apply,
 * deletes, orphaning and implicit objects, for real or as a server-side dry run, each ending in an
 * {@code ActionResult} rather than an exception.
 */
package dev.windlass.applier.write;
