package chat.buzz.client;

import chat.buzz.protocol.Event;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Where a client keeps what it synced. Every mutating call is atomic: entries, cursor and policy stamp
 * change together or not at all, so a crash never leaves a cursor ahead of the data it covers.
 * {@link SqliteStore} is the default.
 */
public interface Store extends AutoCloseable {
    /** What the cursor belongs to; a cursor is only valid for the same relay, key and scope. */
    record Binding(String relay, String pubkey, List<String> scope) {}

    /** The session state saved with the data: the cursor to send next, the stamp last seen, whether more follows. */
    record Position(String cursor, String policy, boolean more) {}

    Optional<Binding> binding();

    /**
     * Binds the store to another relay, key or scope: what it held belonged to the old binding, so it
     * drops the artifacts and the cursor together, and the next read bootstraps.
     */
    void rebind(Binding binding);

    Optional<Position> position();

    /**
     * Applies one page of a delta read and saves its cursor: upserts store the head and confirm the id,
     * removes drop it. With {@code reset}, every id held before the page is first marked unconfirmed.
     */
    void applyPage(List<Entry> entries, Position next, boolean reset);

    /** Applies known-ID answers; an upsert of an id no delta has confirmed is marked known-ID only. */
    void applyKnownIds(List<Entry> entries, String policy);

    /** Ids marked unconfirmed by a reset and not confirmed since. */
    List<String> unconfirmed();

    /** Drops the cursor so the next read is a fresh bootstrap; with {@code unconfirmAll}, as a reset would. */
    void restartSession(boolean unconfirmAll);

    /** Replaces everything with {@code heads} (the fallback of mode "current", which has no cursor). */
    void replaceAll(List<Entry> heads, String policy);

    /** Drops a channel's artifacts (a TTL channel named in the scope, PROTOCOL 4.5). */
    int dropChannel(String h);

    Optional<StoredArtifact> get(String d);

    /** Every artifact, optionally of one channel, ordered by channel then d. */
    List<StoredArtifact> list(Optional<String> channel);

    /** The ids held, known-ID-only ones included. */
    List<String> ids();

    /** The digest of PROTOCOL 4.4a over what the store holds, known-ID-only ids left out. */
    Digest digest();

    /**
     * Applies changes that arrived without a cursor (WebSocket sync, PROTOCOL 5): the saved cursor stays
     * behind them, so the next delta session may repeat them, which applying is idempotent about.
     */
    void applyLive(List<Entry> entries);

    /**
     * After a WebSocket subscription's initial heads: drops every id that is neither in {@code seen}
     * nor known-ID only, since the subscription sent all of D.
     */
    int retainOnly(java.util.Set<String> seen);

    /** For repairs and tests: drop ids without touching the cursor. */
    void forget(Collection<String> ids);

    /**
     * Channel metadata (PROTOCOL 4.6, kinds 39000-39002): replaces what is held for {@code channels}
     * (everything when empty, after a full listing) with {@code events}; a channel named but without
     * events is no longer readable and its metadata goes.
     */
    void replaceChannelMetadata(Optional<Collection<String>> channels, List<Event> events);

    /** Live channel metadata: each event replaces the one of its channel and kind unless that is newer. */
    void applyChannelMetadata(List<Event> events);

    /** A channel's event of this kind was withdrawn (a kind-5 over WebSocket: the channel left the key's view). */
    void dropChannelMetadata(String channel, int kind);

    /** The metadata events held, to be folded with {@link Channel#fold}. */
    List<Event> channelMetadata();

    @Override
    void close();
}
