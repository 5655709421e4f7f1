package chat.buzz.client.cli;

import chat.buzz.client.Channel;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A channel named on the command line by its id or by its name. A name is looked up in the channel
 * metadata the store keeps (PROTOCOL 4.6, the kind 39000 names), never asked of the relay, so a name
 * that is unknown or shared by several channels is a usage error (exit 2) that lists the candidates.
 */
final class ChannelNames {
    /** How many channels an "unknown name" error lists before it says how many more there are. */
    private static final int LISTED = 10;

    private ChannelNames() {}

    /**
     * The channel id {@code value} stands for: a UUID as it is (lowered), otherwise the one channel of
     * that name (a leading {@code #} as {@code follow} prints it is allowed) in the store at {@code storeFile}.
     *
     * @param what the option or parameter, for the error: "--channel", "CHANNEL"
     */
    static String resolve(String what, String value, Path storeFile) {
        if (Arguments.isUuid(value)) {
            return Arguments.uuid(what, value);
        }
        String name = nameIn(what, value);
        if (!Files.exists(storeFile)) {
            throw new UsageProblem(what + ": '" + name + "' is not a channel id, and there is no store at " + storeFile
                    + " to look its name up in (run buzz-sync channels or sync first, or give the channel's id)");
        }
        try (Store store = SqliteStore.openExisting(storeFile)) {
            return among(what, name, Channel.fold(store.channelMetadata()));
        }
    }

    /** The id of the one channel called {@code name}: an exact match, else the one match ignoring case. */
    static String among(String what, String name, List<Channel> channels) {
        List<Channel> named =
                channels.stream().filter(c -> c.name().equals(name)).toList();
        if (named.isEmpty()) {
            named = channels.stream()
                    .filter(c -> c.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)))
                    .toList();
        }
        if (named.size() == 1) {
            return named.get(0).id();
        }
        if (named.isEmpty()) {
            throw new UsageProblem(what + ": no channel named '" + name + "' in the store (" + known(channels)
                    + "); run buzz-sync channels to refresh the names, or give the channel's id");
        }
        throw new UsageProblem(what + ": " + named.size() + " channels are named '" + name + "': "
                + named.stream().map(ChannelNames::describe).collect(Collectors.joining(", "))
                + "; give the id of the one you mean");
    }

    private static String nameIn(String what, String value) {
        String name = value.startsWith("#") ? value.substring(1) : value;
        if (name.isBlank()) {
            throw new UsageProblem(what + " takes a channel's id (a UUID) or its name, not '" + value + "'");
        }
        return name;
    }

    private static String known(List<Channel> channels) {
        if (channels.isEmpty()) {
            return "it knows no channels";
        }
        String listed =
                channels.stream().limit(LISTED).map(ChannelNames::describe).collect(Collectors.joining(", "));
        return "it knows " + listed + (channels.size() > LISTED ? " and " + (channels.size() - LISTED) + " more" : "");
    }

    /** {@code plans (6f1c...-..., private)}. */
    private static String describe(Channel channel) {
        return "'" + channel.name() + "' (" + channel.id() + ", " + channel.visibility() + ")";
    }
}
