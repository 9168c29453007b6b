/** The {@code windlass} command line: run, validate, plan, status, demo. */
package dev.windlass.engine.cli;
