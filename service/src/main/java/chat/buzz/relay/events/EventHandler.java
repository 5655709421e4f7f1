package chat.buzz.relay.events;

import chat.buzz.protocol.Event;
import chat.buzz.relay.auth.Caller;
import org.jdbi.v3.core.Handle;

/**
 * Applies one accepted kind of event inside the write transaction. The event row is already
 * inserted; throwing {@link WriteRejection} rolls everything back.
 */
public interface EventHandler {
    void apply(Handle handle, Caller caller, Event event);
}
