package dev.windlass.git;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.Proxy;
import java.net.URL;
import java.security.GeneralSecurityException;
import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.HttpConnectionFactory2;

/**
 * JGit's connection factory for one transport, noting the HTTP status of the last response. JGit reports a refused
 * login (401) or a refused service (403) as a plain {@code TransportException} whose only trace of the status is its
 * text; the status noted here is what {@link RemoteAccessException} classifies by instead.
 */
final class HttpStatusRecorder implements HttpConnectionFactory2 {

    private final HttpConnectionFactory2 delegate;
    private volatile int last = -1;

    HttpStatusRecorder(HttpConnectionFactory2 delegate) {
        this.delegate = delegate;
    }

    /** Forgets the last status, for a transport used again: this operation's failure is told apart by its own. */
    HttpStatusRecorder startOver() {
        last = -1;
        return this;
    }

    /** The status of the last response the remote gave, if it gave one. */
    OptionalInt lastStatus() {
        int status = last;
        return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    @Override public HttpConnection create(URL url) throws IOException {
        return new Recording(delegate.create(url));
    }

    @Override public HttpConnection create(URL url, Proxy proxy) throws IOException {
        return new Recording(delegate.create(url, proxy));
    }

    /** The delegate's session configures the delegate's own connections (TLS settings), so it gets those. */
    @Override public GitSession newSession() {
        GitSession session = delegate.newSession();
        return new GitSession() {
            @Override public HttpConnection configure(HttpConnection connection, boolean sslVerify)
                    throws IOException, GeneralSecurityException {
                HttpConnection inner = connection instanceof Recording r ? r.inner : connection;
                session.configure(inner, sslVerify);
                return connection;
            }

            @Override public void close() { session.close(); }
        };
    }

    private final class Recording implements HttpConnection {
        private final HttpConnection inner;

        Recording(HttpConnection inner) { this.inner = inner; }

        @Override public int getResponseCode() throws IOException {
            int status = inner.getResponseCode();
            last = status;
            return status;
        }

        @Override public URL getURL() { return inner.getURL(); }
        @Override public String getResponseMessage() throws IOException { return inner.getResponseMessage(); }
        @Override public Map<String, List<String>> getHeaderFields() { return inner.getHeaderFields(); }
        @Override public void setRequestProperty(String key, String value) { inner.setRequestProperty(key, value); }
        @Override public void setRequestMethod(String method) throws ProtocolException { inner.setRequestMethod(method); }
        @Override public void setUseCaches(boolean useCaches) { inner.setUseCaches(useCaches); }
        @Override public void setConnectTimeout(int timeout) { inner.setConnectTimeout(timeout); }
        @Override public void setReadTimeout(int timeout) { inner.setReadTimeout(timeout); }
        @Override public String getContentType() { return inner.getContentType(); }
        @Override public InputStream getInputStream() throws IOException { return inner.getInputStream(); }
        @Override public String getHeaderField(String name) { return inner.getHeaderField(name); }
        @Override public List<String> getHeaderFields(String name) { return inner.getHeaderFields(name); }
        @Override public int getContentLength() { return inner.getContentLength(); }
        @Override public void setInstanceFollowRedirects(boolean follow) { inner.setInstanceFollowRedirects(follow); }
        @Override public void setDoOutput(boolean doOutput) { inner.setDoOutput(doOutput); }
        @Override public void setFixedLengthStreamingMode(int length) { inner.setFixedLengthStreamingMode(length); }
        @Override public OutputStream getOutputStream() throws IOException { return inner.getOutputStream(); }
        @Override public void setChunkedStreamingMode(int chunkLength) { inner.setChunkedStreamingMode(chunkLength); }
        @Override public String getRequestMethod() { return inner.getRequestMethod(); }
        @Override public boolean usingProxy() { return inner.usingProxy(); }
        @Override public void connect() throws IOException { inner.connect(); }

        @Override public void configure(KeyManager[] km, TrustManager[] tm, SecureRandom random)
                throws NoSuchAlgorithmException, KeyManagementException {
            inner.configure(km, tm, random);
        }

        @Override public void setHostnameVerifier(HostnameVerifier verifier)
                throws NoSuchAlgorithmException, KeyManagementException {
            inner.setHostnameVerifier(verifier);
        }
    }
}
