package chat.buzz.relay.events;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.MalformedEventException;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.auth.ReplayToken;
import chat.buzz.relay.database.PlainStatements.StatementFailure;
import chat.buzz.relay.web.Utf8;
import java.nio.charset.CharacterCodingException;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * POST /events: validates an event, then applies it in one transaction, so a write commits
 * whole or not at all. The request's replay token goes in first (PROTOCOL 2.1 step 6, so an accepted
 * write commits once), then the event row: an exact resubmission finds it and is a duplicate. A write
 * refused still uses its token, recorded on its own; one the database fails leaves nothing behind
 * (docs/decisions.md, "The replay guard of a write").
 */
public final class EventWriter {
    static final long MAX_FUTURE_SECONDS = 15 * 60;
    private static final int ATTEMPTS = 3;

    private final Jdbi jdbi;
    private final Map<Integer, EventHandler> handlers;
    private final Clock clock;

    public EventWriter(Jdbi jdbi, Map<Integer, EventHandler> handlers, Clock clock) {
        this.jdbi = jdbi;
        this.handlers = Map.copyOf(handlers);
        this.clock = clock;
    }

    public WriteResult write(Caller caller, ReplayToken token, byte[] body) {
        Event event;
        try {
            event = Event.parse(Utf8.decodeStrict(body));
        } catch (CharacterCodingException e) {
            return refused(token, null, WriteRejection.invalid("body is not valid UTF-8"));
        } catch (MalformedEventException e) {
            return refused(token, null, WriteRejection.invalid(e.getMessage()));
        }
        try {
            EventHandler handler = validate(caller, event);
            return apply(caller, token, event, handler);
        } catch (WriteRejection rejection) {
            return refused(token, event.id(), rejection);
        }
    }

    /** The refusal's transaction, if it had one, rolled back with the token: a replay is still a replay. */
    private static WriteResult refused(ReplayToken token, String eventId, WriteRejection rejection) {
        token.claim();
        return WriteResult.rejected(eventId, rejection);
    }

    private EventHandler validate(Caller caller, Event event) {
        if (!event.hasValidId()) {
            throw WriteRejection.invalid("event id does not match its content");
        }
        if (!event.hasValidSignature()) {
            throw WriteRejection.invalid("bad signature");
        }
        if (!event.pubkey().equals(caller.pubkey())) {
            throw WriteRejection.blocked("event pubkey is not the authenticated caller");
        }
        if (event.createdAt() > clock.instant().getEpochSecond() + MAX_FUTURE_SECONDS) {
            throw WriteRejection.invalid("created_at is more than " + MAX_FUTURE_SECONDS + " s in the future");
        }
        EventLimits.check(event);
        if (event.kind() == Kinds.DELETION) {
            throw WriteRejection.blocked("kind 5 deletion is not accepted; artifacts are deleted with op=delete");
        }
        EventHandler handler = handlers.get(event.kind());
        if (handler == null) {
            throw WriteRejection.invalid("unsupported kind " + event.kind());
        }
        return handler;
    }

    private WriteResult apply(Caller caller, ReplayToken token, Event event, EventHandler handler) {
        for (int attempt = 1; ; attempt++) {
            try {
                return jdbi.inTransaction(handle -> {
                    EventStore events = EventStore.on(handle);
                    if (!events.store(caller.community().id(), event, token)) {
                        // Event ids are global; the same event sent to another community was not applied there.
                        if (events.communityOf(event.id())
                                .filter(id -> id == caller.community().id())
                                .isEmpty()) {
                            throw WriteRejection.conflict("this event is already stored in another community");
                        }
                        return WriteResult.accepted(
                                event.id(), ErrorCodes.DUPLICATE_PREFIX + "already have this event");
                    }
                    handler.apply(handle, caller, event);
                    return WriteResult.accepted(event.id(), "");
                });
            } catch (JdbiException | StatementFailure e) {
                if (attempt >= ATTEMPTS || !isRetryable(e)) {
                    throw e;
                }
            }
        }
    }

    /** Deadlocks and serialization failures leave nothing behind and may simply be tried again. */
    private static boolean isRetryable(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql
                    && sql.getSQLState() != null
                    && (sql.getSQLState().equals("40001") || sql.getSQLState().equals("40P01"))) {
                return true;
            }
        }
        return false;
    }
}
