package chat.buzz.relay.sync;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.access.Judge;
import chat.buzz.relay.identity.RelayIdentity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The relay-signed removal marker ({@link Kinds#REMOVAL_MARKER}) that tells a live subscriber an artifact left its set.
 * What it names, channel (only one in the reader's D now, PROTOCOL 5) and reason (PROTOCOL 4.1), is
 * {@link Judge}'s to decide.
 */
final class RemovalEvents {
    private final RelayIdentity relay;
    private final Clock clock;

    RemovalEvents(RelayIdentity relay, Clock clock) {
        this.relay = relay;
        this.clock = clock;
    }

    /** The marker of a {@link Judge.Verdict.Kind#REMOVE} verdict: its reason, and its channel when it names one. */
    String removal(UUID d, Judge.Verdict removed) {
        UUID channel = removed.channelToName();
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.ARTIFACT_FLAG, "1"));
        tags.add(List.of(Tags.ARTIFACT_ID, d.toString()));
        if (channel != null) {
            tags.add(List.of(Tags.CHANNEL, channel.toString()));
        }
        tags.add(List.of(Tags.REMOVAL_REASON, removed.reason().wire()));
        Event event = relay.keys().sign(Kinds.REMOVAL_MARKER, clock.instant().getEpochSecond(), tags, "");
        return event.toJson();
    }
}
