package chat.buzz.relay.events;

import io.dropwizard.core.setup.Environment;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/** {@code POST /events}: the write path, with each kind handled by the feature that owns it. */
public final class EventsFeature {
    private EventsFeature() {}

    @SafeVarargs
    public static void register(
            Environment environment, Jdbi jdbi, Clock clock, Map<Integer, EventHandler>... handlersByFeature) {
        Map<Integer, EventHandler> handlers = new HashMap<>();
        for (Map<Integer, EventHandler> feature : handlersByFeature) {
            feature.forEach((kind, handler) -> {
                if (handlers.putIfAbsent(kind, handler) != null) {
                    throw new IllegalStateException("two handlers for kind " + kind);
                }
            });
        }
        environment
                .jersey()
                .register(new EventsResource(
                        new EventWriter(jdbi, handlers, clock), new WriteOutcomes(environment.metrics())));
    }
}
