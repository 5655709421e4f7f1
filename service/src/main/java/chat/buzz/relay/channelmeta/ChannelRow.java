package chat.buzz.relay.channelmeta;

import java.util.List;
import java.util.UUID;

/**
 * One listed channel as the metadata read finds it.
 *
 * @param about      the description, null when not set
 * @param picture    the picture's URL, null when not set
 * @param settingsAt when name, visibility, unlisted flag, TTL, description or picture last changed (epoch seconds)
 * @param membersAt  when a membership last started, ended or changed its role (epoch seconds)
 * @param pubkeys    the active members, ordered
 * @param roles      their roles, in the same order
 */
record ChannelRow(
        UUID id,
        String name,
        boolean isPrivate,
        boolean unlisted,
        Long ttlSeconds,
        String about,
        String picture,
        long settingsAt,
        long membersAt,
        List<String> pubkeys,
        List<String> roles) {
    ChannelRow {
        pubkeys = List.copyOf(pubkeys);
        roles = List.copyOf(roles);
    }
}
