package chat.buzz.relay.changes;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.UUID;

/**
 * One committed change, as carried by a NOTIFY payload. It names what changed, never the data:
 * every instance re-reads the database and re-checks access for each of its subscribers.
 *
 * @param community the community id
 * @param kind      what changed
 * @param d         the artifact ({@link Kind#HEAD})
 * @param from      the artifact's channel before the change ({@link Kind#HEAD}; differs from {@code channel} on a move)
 * @param channel   the artifact's channel now, the channel whose membership, policy or other settings changed
 * @param pubkey    the member whose access changed ({@link Kind#MEMBER})
 * @param settings  the row of channel_settings_history that says what changed ({@link Kind#SETTINGS})
 * @param direction which way that change can move the channel's artifacts ({@link Kind#SETTINGS}; null:
 *                  either). Not part of the notice: each instance reads it from the history row once per
 *                  change ({@link #withDirection}), so that an instance of an earlier release, whose reader
 *                  refuses fields it does not know, still understands every notice during a rolling upgrade.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Change(
        @JsonProperty("c") long community,
        @JsonProperty("k") Kind kind,
        @JsonProperty("d") UUID d,
        @JsonProperty("from") UUID from,
        @JsonProperty("h") UUID channel,
        @JsonProperty("p") String pubkey,
        @JsonProperty("s") Long settings,
        @JsonIgnore PolicyChangeDirection direction) {
    // Fields a later release adds are skipped, so that during a rolling upgrade this one still reads its notices.
    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public enum Kind {
        HEAD,
        MEMBER,
        /** A channel policy change delivered as a reset: every subscriber of the community resubscribes. */
        POLICY,
        /** A channel policy change delivered as entries (PROTOCOL 4.4): each subscriber is told what it changed. */
        SETTINGS,
        /** A channel was created, or what decides nobody's read access (its name, a member's role) changed. */
        CHANNEL
    }

    static Change head(long community, UUID d, UUID from, UUID channel) {
        return new Change(community, Kind.HEAD, d, from, channel, null, null, null);
    }

    static Change member(long community, UUID channel, String pubkey) {
        return new Change(community, Kind.MEMBER, null, null, channel, pubkey, null, null);
    }

    static Change channel(long community, UUID channel) {
        return new Change(community, Kind.CHANNEL, null, null, channel, null, null, null);
    }

    static Change policy(long community, UUID channel) {
        return new Change(community, Kind.POLICY, null, null, channel, null, null, null);
    }

    static Change settings(long community, UUID channel, long settings) {
        return new Change(community, Kind.SETTINGS, null, null, channel, null, settings, null);
    }

    /** This change, told which way it can move the channel's artifacts. */
    public Change withDirection(PolicyChangeDirection known) {
        return new Change(community, kind, d, from, channel, pubkey, settings, known);
    }

    String toPayload() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Change fromPayload(String payload) {
        try {
            return JSON.readValue(payload, Change.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a sync change payload: " + payload, e);
        }
    }
}
