package dev.weft.api;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Builds {@code /openapi.json} from {@code openapi/base.json} and the fragment of every mounted module. */
final class OpenApiDocument {
    private OpenApiDocument() {}

    static JsonObject merge(List<ApiModule> modules) throws IOException {
        JsonObject doc = read("openapi/base.json");
        JsonObject paths = doc.getJsonObject("paths", new JsonObject());
        JsonObject components = doc.getJsonObject("components", new JsonObject());
        for (ApiModule m : modules) {
            String res = m.openApiFragment();
            if (res == null) continue;
            JsonObject frag = read(res);
            frag.getJsonObject("paths", new JsonObject()).forEach(e -> paths.put(e.getKey(), e.getValue()));
            JsonObject fc = frag.getJsonObject("components", new JsonObject());
            for (String section : fc.fieldNames()) {
                JsonObject target = components.getJsonObject(section, new JsonObject());
                fc.getJsonObject(section).forEach(e -> target.put(e.getKey(), e.getValue()));
                components.put(section, target);
            }
        }
        return doc.put("paths", paths).put("components", components);
    }

    static JsonObject read(String resource) throws IOException {
        try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IOException("missing resource " + resource);
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
