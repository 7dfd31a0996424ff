package dev.weft.store;

import java.util.LinkedHashMap;
import java.util.Map;

/** A small synchronized least-recently-used map (dictionary id caches). */
public final class Lru<K, V> {
    private final LinkedHashMap<K, V> map;

    public Lru(int capacity) {
        this.map = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }

    public synchronized V get(K k) {
        return map.get(k);
    }

    public synchronized void putAll(Map<K, V> m) {
        map.putAll(m);
    }

    public synchronized int size() {
        return map.size();
    }
}
