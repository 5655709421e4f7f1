package chat.buzz.relay.artifact;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.access.AccessLookup;
import chat.buzz.relay.access.ChannelAccess;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.changes.ChangeNotifications;
import chat.buzz.relay.events.EventHandler;
import chat.buzz.relay.events.EventStore;
import chat.buzz.relay.events.TagReader;
import chat.buzz.relay.events.WriteRejection;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * PROTOCOL 3.4: a redaction ({@link Kinds#REDACTION}) hides an artifact revision everywhere. A redacted head takes its
 * artifact out of current state until a revision naming it in prev is accepted.
 */
public final class Redactions implements EventHandler {
    private static final String NOT_FOUND = "revision not found or not accessible";

    @Override
    public void apply(Handle handle, Caller caller, Event event) {
        TagReader tags = new TagReader(event);
        UUID channel = tags.requiredUuid(Tags.CHANNEL);
        String target = tags.eventId(Tags.REDACTED_EVENT).orElseThrow(() -> WriteRejection.invalid("missing e tag"));
        long community = caller.community().id();
        UUID revisionChannel = ArtifactDao.on(handle)
                .revisionChannel(target, community, Kinds.ARTIFACT_REVISION)
                .orElseThrow(() -> WriteRejection.blocked(NOT_FOUND));
        ChannelAccess access =
                AccessLookup.lookup(handle, community, revisionChannel, caller.pubkey(), AccessLookup.Lock.SHARED);
        EventStore events = EventStore.on(handle);
        String author = events.author(target, community).orElseThrow(() -> WriteRejection.blocked(NOT_FOUND));
        if (!access.canRead() && !caller.pubkey().equals(author)) {
            throw WriteRejection.blocked(NOT_FOUND);
        }
        if (!revisionChannel.equals(channel)) {
            throw WriteRejection.invalid("h must name the channel of the redacted revision");
        }
        if (!access.canRedact(caller.pubkey(), author)) {
            throw WriteRejection.blocked("only owners, admins or the author may redact");
        }
        // Migration 0076's trigger on events marks a redacted head as changed for incremental readers.
        if (events.redact(target, caller.pubkey()) == 1) {
            ChangeNotifications.revisionRedacted(handle, community, target);
        }
    }
}
