/** The Git host's web API: one pull request comment per review and a commit status on its head. */
package dev.windlass.githost;
