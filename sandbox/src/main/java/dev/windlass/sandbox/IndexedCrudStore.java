package dev.windlass.sandbox;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;

import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * The embedded CRUD store, finding an object by its name instead of comparing the request with every object it holds.
 *
 * <p>The embedded store answers a GET, and looks up the object a PUT, PATCH or POST is about, by copying and
 * scanning its whole map: every request cost time in proportion to the objects of its resource on the cluster
 * (37% of the cluster host's CPU in a first sync of 200 apps x 5 clusters). Here its map is a {@link NamedIndex},
 * and a request that names its object looks only at the objects of that name. What matches is decided by the
 * store's own rule ({@link AttributeSet#matches}) on those candidates, so the answers are the same. Lists, watches,
 * deletes and the store's locking are the embedded store's.
 *
 * <p>The store keeps its map and lock in fields it offers no way to replace or take; they are set and read here by
 * reflection, once per store. A client library upgrade that renames them fails every sandbox test at once.
 */
final class IndexedCrudStore extends KubernetesCrudDispatcher {

    private static final String NAME = "name";
    private static final Field MAP = field(CrudDispatcher.class, "map");
    private static final Field LOCK = field(KubernetesCrudDispatcher.class, "lock");

    private final NamedIndex index = new NamedIndex();
    private final Lock readLock;

    IndexedCrudStore() {
        try {
            MAP.set(this, index);
            readLock = ((ReadWriteLock) LOCK.get(this)).readLock();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot index the embedded CRUD store", e);
        }
    }

    /** A GET of one object by name (not a watch) looks at that name's objects only. */
    @Override public MockResponse handleGet(String path) {
        if (path.contains("watch=")) return super.handleGet(path);
        AttributeSet query = attributeExtractor.fromPath(path);
        Attribute name = query.getAttribute(NAME);
        if (name == null || name.getType() != AttributeType.WITH) return super.handleGet(path);
        readLock.lock();
        try {
            Map.Entry<AttributeSet, String> found = first(name, query);
            return found == null
                    ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND)
                    : new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(found.getValue());
        } finally {
            readLock.unlock();
        }
    }

    /** The object a write is about; the embedded store calls this under its write lock. */
    @Override public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        Attribute name = query.getAttribute(NAME);
        if (name == null || name.getType() != AttributeType.WITH) return super.findResource(query);
        return first(name, query);
    }

    private Map.Entry<AttributeSet, String> first(Attribute name, AttributeSet query) {
        for (Map.Entry<AttributeSet, String> candidate : index.named(name)) {
            if (candidate.getKey().matches(query)) return candidate;
        }
        return null;
    }

    private static Field field(Class<?> owner, String name) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("the embedded CRUD store has no field " + name + ": " + e);
        }
    }
}
