package chat.buzz.relay.channel;

import chat.buzz.protocol.Tags;
import chat.buzz.relay.events.EventLimits;
import chat.buzz.relay.events.TagReader;
import chat.buzz.relay.events.WriteRejection;
import java.util.Optional;

/**
 * The settable fields of a channel as carried by the tags of {@link chat.buzz.protocol.Kinds#CREATE_CHANNEL} and {@link chat.buzz.protocol.Kinds#EDIT_CHANNEL}.
 * Empty means "not given"; a ttl of 0 in an edit clears it, as an empty about or picture does.
 */
record ChannelSettings(
        Optional<String> name,
        Optional<String> visibility,
        Optional<Boolean> unlisted,
        Optional<Long> ttlSeconds,
        Optional<String> about,
        Optional<String> picture) {
    static final int MAX_NAME_BYTES = 256;
    static final int MAX_ABOUT_BYTES = 2048;
    static final int MAX_PICTURE_BYTES = 1024;
    static final long MAX_TTL_SECONDS = 10L * 366 * 24 * 3600;

    static ChannelSettings from(TagReader tags) {
        Optional<String> name = tags.single(Tags.CHANNEL_NAME);
        if (name.isPresent() && (name.get().isBlank() || EventLimits.utf8Length(name.get()) > MAX_NAME_BYTES)) {
            throw WriteRejection.invalid("name must be 1.." + MAX_NAME_BYTES + " bytes and not blank");
        }
        Optional<String> visibility = tags.single(Tags.VISIBILITY);
        if (visibility.isPresent()
                && !visibility.get().equals("open")
                && !visibility.get().equals("private")) {
            throw WriteRejection.invalid("visibility must be open or private");
        }
        return new ChannelSettings(
                name,
                visibility,
                tags.flag(Tags.UNLISTED),
                tags.single(Tags.TTL).map(ChannelSettings::ttl),
                text(tags, Tags.ABOUT, MAX_ABOUT_BYTES),
                text(tags, Tags.PICTURE, MAX_PICTURE_BYTES));
    }

    boolean isEmpty() {
        return name.isEmpty()
                && visibility.isEmpty()
                && unlisted.isEmpty()
                && ttlSeconds.isEmpty()
                && about.isEmpty()
                && picture.isEmpty();
    }

    /** An about or picture as stored: null for an empty value, which clears it. */
    static String stored(String value) {
        return value.isEmpty() ? null : value;
    }

    private static Optional<String> text(TagReader tags, String tag, int maxBytes) {
        Optional<String> value = tags.single(tag);
        if (value.isPresent() && EventLimits.utf8Length(value.get()) > maxBytes) {
            throw WriteRejection.invalid(tag + " must be at most " + maxBytes + " bytes");
        }
        return value;
    }

    private static long ttl(String value) {
        long seconds;
        try {
            seconds = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw WriteRejection.invalid("ttl must be a whole number of seconds");
        }
        if (seconds < 0 || seconds > MAX_TTL_SECONDS || !value.equals(Long.toString(seconds))) {
            throw WriteRejection.invalid("ttl must be 0.." + MAX_TTL_SECONDS + " seconds");
        }
        return seconds;
    }
}
