package chat.buzz.relay.artifact;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.events.EventStore;
import chat.buzz.relay.identity.RelayIdentity;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * PROTOCOL 3.3: when an artifact moves, the old channel keeps a relay-signed removal marker ({@link Kinds#REMOVAL_MARKER})
 * that says only that it left, never where it went.
 */
public final class RemovalMarkers {
    private final RelayIdentity relay;
    private final Clock clock;

    public RemovalMarkers(RelayIdentity relay, Clock clock) {
        this.relay = relay;
        this.clock = clock;
    }

    public Event recordMove(Handle handle, long communityId, UUID d, UUID oldChannel, String replacedRevision) {
        Event marker = relay.keys()
                .sign(
                        Kinds.REMOVAL_MARKER,
                        clock.instant().getEpochSecond(),
                        List.of(
                                List.of(Tags.ARTIFACT_FLAG, "1"),
                                List.of(Tags.ARTIFACT_ID, d.toString()),
                                List.of(Tags.CHANNEL, oldChannel.toString()),
                                List.of(Tags.REMOVAL_REASON, "moved"),
                                List.of(Tags.PREVIOUS_REVISION, replacedRevision)),
                        "");
        EventStore.on(handle).store(communityId, marker);
        ArtifactDao.on(handle)
                .recordRevision(
                        marker.id(),
                        communityId,
                        d,
                        oldChannel,
                        Kinds.REMOVAL_MARKER,
                        "moved",
                        replacedRevision,
                        relay.publicKeyHex());
        return marker;
    }
}
