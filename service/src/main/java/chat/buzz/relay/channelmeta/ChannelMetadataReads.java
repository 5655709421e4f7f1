package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.database.ReadPlacement;
import chat.buzz.relay.database.ReadTransaction;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.statement.Query;

/**
 * PROTOCOL 4.6: the channel metadata a reader may see, as relay-signed events, newest first. A channel
 * it cannot read is simply absent.
 */
public final class ChannelMetadataReads {
    /**
     * Ties by channel id, as the query orders channels before its limit (PostgreSQL orders uuids as
     * their lowercase text sorts), then by kind: so the first {@code limit} events come from the
     * channels the query kept.
     */
    private static final Comparator<Event> NEWEST_FIRST = Comparator.comparingLong(Event::createdAt)
            .reversed()
            .thenComparing(event -> event.tag(Tags.ARTIFACT_ID).orElseThrow())
            .thenComparingInt(Event::kind);

    private final ReadTransaction transaction;
    private final ReadPlacement placement;
    private final ChannelMetadataEvents events;

    /**
     * @param placement where a read may run: a live subscription reads the primary, whose LISTEN order its
     *                  frames follow; a signed HTTP read any node that has the caller's own writes
     */
    public ChannelMetadataReads(ReadTransaction transaction, ReadPlacement placement, ChannelMetadataEvents events) {
        this.transaction = transaction;
        this.placement = placement;
        this.events = events;
    }

    /** The same reads, run where {@code other} says. */
    public ChannelMetadataReads placed(ReadPlacement other) {
        return new ChannelMetadataReads(transaction, other, events);
    }

    public String relayPubkey() {
        return events.relayPubkey();
    }

    public List<Event> read(long community, String reader, ChannelMetadataFilter filter) {
        return read(community, reader, filter, !filter.channels().isEmpty());
    }

    /**
     * The union of what each metadata filter reads, each event once, newest first; deletion filters add
     * nothing, as no deletion is kept (see {@link DeletionFilter}).
     */
    public List<Event> read(long community, String reader, MetadataRequest request) {
        if (request.metadata().size() == 1) {
            return read(community, reader, request.metadata().get(0));
        }
        Map<String, Event> union = new LinkedHashMap<>();
        for (ChannelMetadataFilter filter : request.metadata()) {
            for (Event event : read(community, reader, filter)) {
                union.putIfAbsent(event.id(), event);
            }
        }
        List<Event> found = new ArrayList<>(union.values());
        found.sort(NEWEST_FIRST);
        return found;
    }

    /**
     * The current events of one channel for a live subscription; empty when the reader may not see it
     * under the subscription's rule: a broad subscription judges by discovery even though this read
     * names the channel, so an unlisted channel never reaches a non-member that did not name it.
     */
    List<Event> channel(long community, String reader, UUID channel, ChannelMetadataFilter filter) {
        ChannelMetadataFilter one = new ChannelMetadataFilter(
                filter.kinds(),
                List.of(channel),
                true,
                0,
                Long.MAX_VALUE,
                filter.kinds().size());
        return read(community, reader, one, !filter.channels().isEmpty());
    }

    /** @param named whether the readable rule applies (channels named by the reader) or the discovery rule */
    private List<Event> read(long community, String reader, ChannelMetadataFilter filter, boolean named) {
        if (!filter.relayIsAnAuthor() || filter.since() > filter.until()) {
            return List.of();
        }
        List<Event> found = new ArrayList<>();
        for (ChannelRow channel : channels(community, reader, filter, named)) {
            for (int kind : filter.kinds()) {
                Event event = events.event(channel, kind);
                if (event.createdAt() >= filter.since() && event.createdAt() <= filter.until()) {
                    found.add(event);
                }
            }
        }
        found.sort(NEWEST_FIRST);
        return found.size() <= filter.limit() ? found : List.copyOf(found.subList(0, filter.limit()));
    }

    /** The relay-signed deletion of a channel's events, for a subscriber that may no longer see it. */
    Event withdrawal(UUID channel, Iterable<Integer> kinds) {
        return events.withdrawal(channel, kinds);
    }

    private List<ChannelRow> channels(long community, String reader, ChannelMetadataFilter filter, boolean named) {
        boolean restricted = !filter.channels().isEmpty();
        return transaction.run(placement, handle -> {
            Query query = handle.createQuery(ChannelMetadataQueries.channels(named, restricted))
                    .bind("community", community)
                    .bind("reader", reader)
                    .bind("since", filter.since())
                    .bind("until", filter.until())
                    .bind("settings", filter.asksFor(Kinds.CHANNEL_METADATA))
                    .bind("members", filter.asksFor(Kinds.CHANNEL_ADMINS) || filter.asksFor(Kinds.CHANNEL_MEMBERS))
                    .bind("limit", filter.limit());
            if (restricted) {
                query.bindArray("channels", UUID.class, filter.channels());
            }
            return query.map((rs, ctx) -> row(rs)).list();
        });
    }

    private static ChannelRow row(ResultSet rs) throws SQLException {
        long ttl = rs.getLong("ttl_seconds");
        Long ttlSeconds = rs.wasNull() ? null : ttl;
        return new ChannelRow(
                rs.getObject("id", UUID.class),
                rs.getString("name"),
                "private".equals(rs.getString("visibility")),
                rs.getBoolean("unlisted"),
                ttlSeconds,
                rs.getString("about"),
                rs.getString("picture"),
                rs.getLong("settings_at"),
                rs.getLong("members_at"),
                strings(rs.getArray("pubkeys")),
                strings(rs.getArray("roles")));
    }

    private static List<String> strings(Array array) throws SQLException {
        return Arrays.asList((String[]) array.getArray());
    }
}
