package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.ReviewSettings;
import java.util.List;
import java.util.regex.Pattern;

/** Reads {@code Settings.spec.review}; a wrong value is an error and keeps the default. */
final class ReviewSettingsReader {
    private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");
    private static final Pattern HTTP_URL = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[^\\s]*)?");
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ReviewSettingsReader() {}

    static ReviewSettings read(Fields spec) {
        ReviewSettings fallback = ReviewSettings.DEFAULT;
        Fields r = spec.object("review");
        if (r == null) return fallback;
        boolean enabled = r.bool("enabled", fallback.enabled());
        List<String> branches = r.strings("branches");
        for (String g : branches) {
            if (g.isBlank()) r.error("branches", "Settings.spec.review.branches has an empty pattern; write e.g. \"feature/*\" or \"**\"");
        }
        boolean pulls = r.bool("pullRequests", fallback.pullRequests());
        boolean undiverged = r.bool("requireUndiverged", fallback.requireUndiverged());
        ReviewSettings.Host host = host(r);
        r.end();
        return new ReviewSettings(enabled, branches.stream().filter(g -> !g.isBlank()).toList(), pulls, undiverged, host);
    }

    private static ReviewSettings.Host host(Fields r) {
        Fields h = r.object("host");
        if (h == null) return null;
        String type = h.requiredString("type");
        boolean ok = true;
        if (type != null && !type.equals("github") && !type.equals("gitea")) {
            h.error("type", "Settings.spec.review.host.type " + Excerpt.quoted(type) + " is not known; write github or gitea");
            ok = false;
        }
        String api = h.string("apiUrl", "github".equals(type) ? "https://api.github.com" : null);
        if (api == null && "gitea".equals(type)) {
            h.errorHere("Settings.spec.review.host.apiUrl is required for gitea; write e.g. https://git.example.com/api/v1");
            ok = false;
        } else if (api != null && !isHttpUrl(api)) {
            h.error("apiUrl", "Settings.spec.review.host.apiUrl " + Excerpt.quoted(api) + " is not an http(s) URL; write e.g. https://api.github.com");
            ok = false;
        }
        String repository = h.string("repository", null);
        if (repository != null && !REPOSITORY.matcher(repository).matches()) {
            h.error("repository", "Settings.spec.review.host.repository " + Excerpt.quoted(repository) + " must be owner/name, e.g. platform/fleet-config");
            ok = false;
        }
        String tokenEnv = h.string("tokenEnv", ReviewSettings.DEFAULT_TOKEN_ENV);
        if (!ENV.matcher(tokenEnv).matches()) {
            h.error("tokenEnv", "Settings.spec.review.host.tokenEnv " + Excerpt.quoted(tokenEnv) + " is not an environment variable name; write e.g. "
                    + ReviewSettings.DEFAULT_TOKEN_ENV);
            ok = false;
        }
        String tokenFile = h.string("tokenFile", null);
        if (h.has("token")) h.error("token", "Settings.spec.review.host.token would put a secret in Git; set tokenEnv or tokenFile instead");
        h.end();
        return ok && type != null ? new ReviewSettings.Host(type, api, repository, tokenEnv, tokenFile) : null;
    }

    private static boolean isHttpUrl(String s) {
        return HTTP_URL.matcher(s).matches();
    }
}
