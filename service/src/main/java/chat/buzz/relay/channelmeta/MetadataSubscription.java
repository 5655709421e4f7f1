package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

/**
 * One live channel-metadata subscription. It remembers the id of every event it sent, per channel and
 * kind: the events are reproducible, so an unchanged id means nothing changed, and a channel it sent
 * that the reader can no longer see is withdrawn with a deletion. Its deletion filters watch channels
 * without sending their events; a watched channel that leaves the reader's view is withdrawn too. Each
 * withdrawal goes once, whichever filters caused it. Touched only by the notifier's serial executor,
 * apart from the cancel flag.
 */
final class MetadataSubscription {
    private final long community;
    private final String reader;
    private final MetadataRequest request;
    private final List<ChannelMetadataFilter> watches;
    private final ChannelMetadataLive.Sink sink;
    private final Map<UUID, Map<Integer, String>> sent = new HashMap<>();
    private final Map<UUID, Set<Integer>> watched = new HashMap<>();
    private volatile boolean cancelled;

    /** @param watches what the request's deletion filters watch (see {@link DeletionFilter#watched}) */
    MetadataSubscription(
            long community,
            String reader,
            MetadataRequest request,
            List<ChannelMetadataFilter> watches,
            ChannelMetadataLive.Sink sink) {
        this.community = community;
        this.reader = reader;
        this.request = request;
        this.watches = List.copyOf(watches);
        this.sink = sink;
    }

    long community() {
        return community;
    }

    String reader() {
        return reader;
    }

    List<ChannelMetadataFilter> metadataFilters() {
        return request.metadata();
    }

    List<ChannelMetadataFilter> watches() {
        return watches;
    }

    boolean cancelled() {
        return cancelled;
    }

    void cancel() {
        cancelled = true;
    }

    /** @param watchedNow the watched channels the reader sees, with the kinds each withdrawal would name */
    void snapshot(List<Event> events, Map<UUID, Set<Integer>> watchedNow) {
        watched.putAll(watchedNow);
        for (Event event : events) {
            send(event);
        }
        if (!cancelled) {
            sink.endOfStoredEvents();
        }
    }

    /**
     * @param now the channel's events as the metadata filters may show them now; empty when none may
     * @param watchedKinds the kinds of the watches that still see the channel; empty when none does
     * @param concernedKinds the kinds of the metadata filters this channel concerns
     * @param withdrawal the deletion naming the given kinds
     */
    void update(
            UUID channel,
            List<Event> now,
            Set<Integer> watchedKinds,
            Set<Integer> concernedKinds,
            Function<Set<Integer>, Event> withdrawal) {
        boolean leftMetadata = now.isEmpty() && sent.containsKey(channel);
        boolean leftWatch = now.isEmpty() && watchedKinds.isEmpty() && watched.containsKey(channel);
        Set<Integer> withdrawn = new TreeSet<>();
        if (leftMetadata) {
            sent.remove(channel);
            withdrawn.addAll(concernedKinds);
        }
        if (leftWatch) {
            withdrawn.addAll(watched.remove(channel));
        }
        if (watchedKinds.isEmpty()) {
            watched.remove(channel);
        } else {
            watched.put(channel, Set.copyOf(watchedKinds));
        }
        if (!withdrawn.isEmpty() && !cancelled) {
            sink.event(withdrawal.apply(withdrawn).toJson());
        }
        for (Event event : now) {
            String known = sent.getOrDefault(channel, Map.of()).get(event.kind());
            if (inWindowOfAnyFilter(event) && !event.id().equals(known)) {
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

    private boolean inWindowOfAnyFilter(Event event) {
        for (ChannelMetadataFilter filter : request.metadata()) {
            if (filter.asksFor(event.kind())
                    && event.createdAt() >= filter.since()
                    && event.createdAt() <= filter.until()) {
                return true;
            }
        }
        return false;
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
