package dev.windlass.policy.model;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Pull-request review of plans, from {@code Settings.spec.review}. Read from the main branch only: a branch under
 * review never chooses where its own plan (or the host token) goes.
 *
 * @param branches          globs of branches to plan ({@code *} within one path segment, {@code **} across);
 *                          empty: every branch except the main branch and the status branch
 * @param pullRequests      also plan the {@code refs/pull/N/head} refs that pull-request hosts expose
 * @param requireUndiverged when the plan for a merge differs from the plan reviewed for its branch, hold the apply
 *                          until the fresh plan is published, instead of applying and recording the divergence
 * @param host              where to comment and set commit statuses, or null (plans go to the status branch only)
 */
public record ReviewSettings(boolean enabled, List<String> branches, boolean pullRequests, boolean requireUndiverged, Host host) {

    public static final ReviewSettings DEFAULT = new ReviewSettings(true, List.of(), true, false, null);
    public static final String DEFAULT_TOKEN_ENV = "WINDLASS_REVIEW_TOKEN";

    /**
     * @param type       {@code github} or {@code gitea}
     * @param apiUrl     the API's base URL ({@code https://api.github.com}, {@code https://git.example.com/api/v1})
     * @param repository {@code owner/name}; null: taken from the config repository's URL
     * @param tokenEnv   environment variable that holds the token
     * @param tokenFile  file that holds the token (wins over tokenEnv when set); never a token in Git
     */
    public record Host(String type, String apiUrl, String repository, String tokenEnv, String tokenFile) {}

    public ReviewSettings {
        branches = List.copyOf(branches);
    }

    /** Whether {@code branch} is reviewed, given the branches the engine itself owns. */
    public boolean reviews(String branch, String mainBranch, String statusBranch) {
        if (!enabled || branch.equals(mainBranch) || branch.equals(statusBranch)) return false;
        if (branches.isEmpty()) return true;
        return branches.stream().anyMatch(g -> glob(g).matcher(branch).matches());
    }

    /** {@code *} matches within one path segment, {@code **} across segments, {@code ?} one character. */
    public static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                re.append(".*");
                i++;
            } else if (c == '*') {
                re.append("[^/]*");
            } else if (c == '?') {
                re.append("[^/]");
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }
}
