package chat.buzz.relay.fleet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.config.ConfigRegistry;
import org.jdbi.v3.core.generic.GenericType;
import org.jdbi.v3.core.mapper.ColumnMapper;
import org.jdbi.v3.core.mapper.ColumnMapperFactory;

/**
 * The jsonb columns of relay_instances: a report's gates and traffic, written and read as JSON text.
 * Public because Jdbi instantiates it from {@code @RegisterColumnMapperFactory}.
 */
public final class FleetJson implements ColumnMapperFactory {
    private static final ObjectMapper JSON = Jackson.newObjectMapper();
    private static final Type GATES = new GenericType<Map<String, Boolean>>() {}.getType();
    private static final Type TRAFFIC = new GenericType<List<TrafficSample>>() {}.getType();

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Optional<ColumnMapper<?>> build(Type type, ConfigRegistry config) {
        if (!type.equals(GATES) && !type.equals(TRAFFIC)) {
            return Optional.empty();
        }
        JavaType target = JSON.constructType(type);
        return Optional.of((rows, column, context) -> read(rows.getString(column), target));
    }

    private static Object read(String text, JavaType target) {
        try {
            return JSON.readValue(text, target);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable JSON in relay_instances: " + text, e);
        }
    }
}
