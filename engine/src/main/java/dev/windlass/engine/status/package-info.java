/** The status branch as files: how engine state, plans and events become YAML, Markdown and commit messages people read. */
package dev.windlass.engine.status;
