/**
 * The read-only fleet dashboard. The engine publishes a {@link dev.windlass.dashboard.FleetView} after each pass
 * ({@link dev.windlass.dashboard.ViewBoard}); the pages are prepared from it as plain data (the {@code *Page} classes) and
 * rendered with Mustache templates that escape every value. Nothing here writes to Git or to a cluster.
 */
package dev.windlass.dashboard;
