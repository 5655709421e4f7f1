package chat.buzz.relay.sync;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.identity.RelayIdentity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The relay-signed removal marker ({@link Kinds#REMOVAL_MARKER}) that tells a live subscriber an artifact left its set.
 * It names the channel only as PROTOCOL 5 allows (a channel in the reader's set now), and the reason only as
 * far as PROTOCOL 4.1 allows.
 */
final class RemovalEvents {
    private final RelayIdentity relay;
    private final Clock clock;

    RemovalEvents(RelayIdentity relay, Clock clock) {
        this.relay = relay;
        this.clock = clock;
    }

    /** @param channel the channel to name, or null when the reader may not learn it */
    String removal(UUID d, UUID channel, String reason) {
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.ARTIFACT_FLAG, "1"));
        tags.add(List.of(Tags.ARTIFACT_ID, d.toString()));
        if (channel != null) {
            tags.add(List.of(Tags.CHANNEL, channel.toString()));
        }
        tags.add(List.of(Tags.REMOVAL_REASON, reason));
        Event event = relay.keys().sign(Kinds.REMOVAL_MARKER, clock.instant().getEpochSecond(), tags, "");
        return event.toJson();
    }
}
