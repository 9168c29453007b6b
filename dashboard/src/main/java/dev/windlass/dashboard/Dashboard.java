package dev.windlass.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The dashboard's pages and their JSON, read only: {@code /} (fleet), {@code /apps/NAME}, {@code /clusters/NAME},
 * {@code /plans}, each also as JSON under {@code /api/...}; {@code /api/version} for the live script; {@code /static/...}.
 * Anything but GET and HEAD is refused. With a {@link BearerToken}, every request must present it.
 */
public final class Dashboard extends Handler.Abstract {
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new com.fasterxml.jackson.datatype.jdk8.Jdk8Module())
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    private static final Map<String, String> STATIC = Map.of("dashboard.css", "text/css; charset=utf-8", "live.js", "text/javascript; charset=utf-8");
    /** No inline script or style, nothing from elsewhere, never framed. */
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final ViewBoard board;
    private final BearerToken token;
    private final GitLinks links;
    private final Templates templates = new Templates();

    public Dashboard(ViewBoard board, BearerToken token, GitLinks links) {
        this.board = board;
        this.token = token == null ? new BearerToken(null) : token;
        this.links = links == null ? GitLinks.NONE : links;
    }

    public ViewBoard board() { return board; }

    @Override public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String method = request.getMethod();
        String path = Request.getPathInContext(request);
        if (!method.equals("GET") && !method.equals("HEAD")) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            return send(response, callback, 405, "text/plain; charset=utf-8", "the dashboard is read only\n");
        }
        Fields query = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        String presented = query.getValue("token");
        if (token.required() && presented != null && token.accepts(presented)) {
            // A browser brings the token once; it is kept in a cookie and taken out of the address bar.
            response.getHeaders().add(HttpHeader.SET_COOKIE, BearerToken.COOKIE + "=" + presented.strip()
                    + "; Path=/; HttpOnly; SameSite=Strict");
            Response.sendRedirect(request, response, callback, path + withoutToken(query));
            return true;
        }
        if (!token.accepts(presentedToken(request))) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"windlass\"");
            return send(response, callback, 401, "text/plain; charset=utf-8",
                    "the dashboard needs its token: Authorization: Bearer <token>, or open it once with ?token=<token>\n");
        }
        if (path.startsWith("/static/")) return serveStatic(response, callback, path.substring("/static/".length()));
        if (path.equals("/api/version")) return json(response, callback, Map.of("version", board.version()));
        FleetView view = board.latest();
        if (view == null) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "5");
            return send(response, callback, 503, "text/html; charset=utf-8", templates.render("waiting",
                    new Layout("Windlass", "", "", "", "", board.version(), false, false, "")));
        }
        Layout layout;
        if (path.equals("/") || path.equals("/api/fleet")) {
            FleetPage.Filter filter = new FleetPage.Filter(query.getValue("label"), query.getValue("cluster"), Set.copyOf(problems(query)), query.getValue("name"),
                    number(query.getValue("page")));
            FleetPage.Model m = FleetPage.of(view, filter, links, board.shardSpread(), board.alertRows());
            if (path.startsWith("/api/")) return json(response, callback, m);
            layout = layout(view, "Fleet", true, false);
            return page(response, callback, "fleet", layout, m);
        }
        if (path.equals("/plans") || path.equals("/api/plans")) {
            PlansPage.Model m = PlansPage.of(view);
            if (path.startsWith("/api/")) return json(response, callback, m);
            return page(response, callback, "plans", layout(view, "Plans", false, true), m);
        }
        String app = name(path, "/apps/", "/api/apps/");
        if (app != null) {
            AppPage.Model m = AppPage.of(view, app, board, links);
            if (m == null) return notFound(response, callback, view, "no application " + app);
            if (path.startsWith("/api/")) return json(response, callback, m);
            return page(response, callback, "app", layout(view, "Application " + app, false, false), m);
        }
        String cluster = name(path, "/clusters/", "/api/clusters/");
        if (cluster != null) {
            ClusterPage.Model m = ClusterPage.of(view, cluster, board);
            if (m == null) return notFound(response, callback, view, "no cluster " + cluster);
            if (path.startsWith("/api/")) return json(response, callback, m);
            return page(response, callback, "cluster", layout(view, "Cluster " + cluster, false, false), m);
        }
        return notFound(response, callback, view, "no page " + path);
    }

    /** The query string the page was asked with, less the token: filters survive the redirect. */
    private static String withoutToken(Fields query) {
        StringBuilder q = new StringBuilder();
        for (Fields.Field f : query) {
            if (f.getName().equals("token")) continue;
            for (String v : f.getValues()) {
                q.append(q.length() == 0 ? '?' : '&').append(java.net.URLEncoder.encode(f.getName(), StandardCharsets.UTF_8)).append('=')
                        .append(java.net.URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        }
        return q.toString();
    }

    private static List<String> problems(Fields query) {
        List<String> values = query.getValues("problem");
        return values == null ? List.of() : values.stream().filter(FleetPage.PROBLEMS::contains).toList();
    }

    private static int number(String text) {
        try {
            return text == null ? 1 : Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** The name after one of the prefixes, decoded; null when the path has neither or the name has a slash. */
    private static String name(String path, String... prefixes) {
        for (String p : prefixes) {
            if (!path.startsWith(p)) continue;
            String rest = URLDecoder.decode(path.substring(p.length()), StandardCharsets.UTF_8);
            return rest.isEmpty() || rest.contains("/") ? null : rest;
        }
        return null;
    }

    private String presentedToken(Request request) {
        String auth = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) return auth.substring(7);
        for (HttpCookie c : Request.getCookies(request)) if (c.getName().equals(BearerToken.COOKIE)) return c.getValue();
        return null;
    }

    private Layout layout(FleetView view, String title, boolean fleet, boolean plans) {
        return new Layout(title, "", view.branch(), view.source() == null ? "" : view.source().substring(0, Math.min(7, view.source().length())),
                Times.show(view.at()), board.version(), fleet, plans, view.writer());
    }

    private boolean page(Response response, Callback callback, String template, Layout layout, Object model) {
        return send(response, callback, 200, "text/html; charset=utf-8", templates.render(template, model, layout));
    }

    private boolean notFound(Response response, Callback callback, FleetView view, String what) {
        return send(response, callback, 404, "text/html; charset=utf-8",
                templates.render("missing", Map.of("what", what), layout(view, "Not found", false, false)));
    }

    private static boolean json(Response response, Callback callback, Object model) throws IOException {
        return send(response, callback, 200, "application/json", JSON.writeValueAsString(model));
    }

    private static boolean serveStatic(Response response, Callback callback, String file) throws IOException {
        String type = STATIC.get(file);
        if (type == null) return send(response, callback, 404, "text/plain; charset=utf-8", "not found\n");
        try (InputStream in = Dashboard.class.getResourceAsStream("/dashboard/static/" + file)) {
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "max-age=300");
            return send(response, callback, 200, type, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static boolean send(Response response, Callback callback, int status, String type, String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put("Content-Security-Policy", CSP);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        if (!response.getHeaders().contains(HttpHeader.CACHE_CONTROL)) response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

}
