package chat.buzz.client.cli;

import chat.buzz.client.Channels;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code join} and {@code leave}: NIP-29 kinds 9021 and 9022 (PROTOCOL 3.1), for the caller itself. */
final class MembershipCommands {
    private MembershipCommands() {}

    /** A write about the caller's own membership: one channel, no other argument. */
    private abstract static class OwnMembership implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Mixin
        ChannelArgument channel;

        abstract Channels.Written write(Channels channels, String id);

        @Override
        public Integer call() {
            String id = channel.id(connection);
            String verb = getClass().getAnnotation(Command.class).name();
            return ChannelWriting.run(
                    connection,
                    verb,
                    channels -> write(channels, id),
                    (written, described) -> (verb.equals("join") ? "joined " : "left ") + described);
        }
    }

    @Command(name = "join", mixinStandardHelpOptions = true, description = "Joins an open channel.")
    static final class Join extends OwnMembership {
        @Override
        Channels.Written write(Channels channels, String id) {
            return channels.join(id);
        }
    }

    @Command(
            name = "leave",
            mixinStandardHelpOptions = true,
            description = "Leaves a channel (the last owner may not).")
    static final class Leave extends OwnMembership {
        @Override
        Channels.Written write(Channels channels, String id) {
            return channels.leave(id);
        }
    }
}
