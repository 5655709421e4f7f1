package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * One live channel-metadata subscription. It remembers the id of every event it sent, per channel and
 * kind: the events are reproducible, so an unchanged id means nothing changed, and a channel it sent
 * that the reader can no longer see is withdrawn with a deletion. Touched only by the notifier's
 * serial executor, apart from the cancel flag.
 */
final class MetadataSubscription {
    private final long community;
    private final String reader;
    private final ChannelMetadataFilter filter;
    private final ChannelMetadataLive.Sink sink;
    private final Map<UUID, Map<Integer, String>> sent = new HashMap<>();
    private volatile boolean cancelled;

    MetadataSubscription(long community, String reader, ChannelMetadataFilter filter, ChannelMetadataLive.Sink sink) {
        this.community = community;
        this.reader = reader;
        this.filter = filter;
        this.sink = sink;
    }

    long community() {
        return community;
    }

    String reader() {
        return reader;
    }

    ChannelMetadataFilter filter() {
        return filter;
    }

    boolean cancelled() {
        return cancelled;
    }

    void cancel() {
        cancelled = true;
    }

    void snapshot(List<Event> events) {
        for (Event event : events) {
            send(event);
        }
        if (!cancelled) {
            sink.endOfStoredEvents();
        }
    }

    /** @param now the channel's events as the reader may see them now; empty when it may not */
    void update(UUID channel, List<Event> now, Supplier<Event> withdrawal) {
        if (now.isEmpty()) {
            if (sent.remove(channel) != null && !cancelled) {
                sink.event(withdrawal.get().toJson());
            }
            return;
        }
        for (Event event : now) {
            boolean inWindow = event.createdAt() >= filter.since() && event.createdAt() <= filter.until();
            String known = sent.getOrDefault(channel, Map.of()).get(event.kind());
            if (inWindow && !event.id().equals(known)) {
                send(event);
            }
        }
    }

    void close(String reason) {
        if (!cancelled) {
            cancelled = true;
            sink.closed(reason);
        }
    }

    private void send(Event event) {
        if (cancelled) {
            return;
        }
        UUID channel = UUID.fromString(event.tag(Tags.ARTIFACT_ID).orElseThrow());
        sent.computeIfAbsent(channel, c -> new HashMap<>()).put(event.kind(), event.id());
        sink.event(event.toJson());
    }
}
