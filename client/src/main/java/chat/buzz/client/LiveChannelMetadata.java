package chat.buzz.client;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.FrameVerbs;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The channel-metadata subscription (PROTOCOL 4.6) a follower keeps beside its sync subscription on the same
 * connection: its initial events replace the store's metadata at EOSE, then each new event is kept as it
 * comes and each kind-5 withdrawal drops what it names, so a channel created or renamed meanwhile shows with
 * its name. Runs on the follow loop's thread, like every other store write of the follower.
 */
final class LiveChannelMetadata {
    private static final Set<Integer> KINDS =
            Set.of(Kinds.CHANNEL_METADATA, Kinds.CHANNEL_ADMINS, Kinds.CHANNEL_MEMBERS);

    private final Store store;
    private final SyncListener listener;
    private String subscription;
    /** The initial events until EOSE; null once live. */
    private List<Event> initial;

    LiveChannelMetadata(Store store, SyncListener listener) {
        this.store = store;
        this.listener = listener;
    }

    void subscribe(LiveSubscription connection, String id) {
        subscription = id;
        initial = new ArrayList<>();
        connection.subscribeChannelMetadata(id);
    }

    /** Whether {@code frame} belongs to this subscription (and was handled). */
    boolean handles(JsonNode frame) {
        if (subscription == null || !frame.path(1).asText().equals(subscription)) {
            return false;
        }
        switch (frame.path(0).asText()) {
            case FrameVerbs.EVENT -> event(Event.fromJson(frame.path(2)));
            case FrameVerbs.EOSE -> {
                if (initial != null) {
                    store.replaceChannelMetadata(Optional.empty(), initial);
                    initial = null;
                }
            }
            case FrameVerbs.CLOSED -> {
                listener.note("the relay closed the channel-metadata subscription ("
                        + frame.path(2).asText() + "); channel names may be out of date");
                subscription = null;
            }
            default -> {}
        }
        return true;
    }

    private void event(Event event) {
        if (!event.hasValidId() || !event.hasValidSignature()) {
            listener.note("ignored a channel metadata event with a bad id or signature: " + event.id());
        } else if (KINDS.contains(event.kind()) && event.tag(Tags.ARTIFACT_ID).isPresent()) {
            if (initial != null) {
                initial.add(event);
                return;
            }
            store.applyChannelMetadata(List.of(event));
            String channel = event.tag(Tags.ARTIFACT_ID).orElseThrow();
            Channel.fold(store.channelMetadata()).stream()
                    .filter(c -> c.id().equals(channel))
                    .findFirst()
                    .ifPresent(listener::channelChanged);
        } else if (event.kind() == Kinds.DELETION) {
            withdraw(event);
        }
    }

    /** {@code ["a", "<kind>:<relay pubkey>:<channel>"]} per withdrawn kind. */
    private void withdraw(Event deletion) {
        for (List<String> tag : deletion.tags()) {
            String[] address = tag.size() > 1 && tag.get(0).equals(Tags.ADDRESS)
                    ? tag.get(1).split(":", 3)
                    : null;
            if (address == null || address.length != 3 || !address[0].matches("\\d{1,9}")) {
                continue;
            }
            int kind = Integer.parseInt(address[0]);
            String channel = address[2];
            if (initial != null) {
                initial.removeIf(e -> e.kind() == kind
                        && e.tag(Tags.ARTIFACT_ID).orElseThrow().equals(channel));
                continue;
            }
            store.dropChannelMetadata(channel, kind);
            if (kind == Kinds.CHANNEL_METADATA) {
                listener.channelGone(channel);
            }
        }
    }
}
