package chat.buzz.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code join} and {@code leave}: NIP-29 kinds 9021 and 9022 (PROTOCOL 3.1), for the caller itself. */
final class MembershipCommands {
    private MembershipCommands() {}

    @Command(name = "join", mixinStandardHelpOptions = true, description = "Joins an open channel.")
    static final class Join implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Parameters(paramLabel = "CHANNEL", description = "the channel id")
        String id;

        @Override
        public Integer call() {
            String channel = Arguments.uuid("the channel", id);
            return ChannelWriting.run(
                    connection,
                    "join",
                    channels -> channels.join(channel),
                    (written, described) -> "joined " + described);
        }
    }

    @Command(
            name = "leave",
            mixinStandardHelpOptions = true,
            description = "Leaves a channel (the last owner may not).")
    static final class Leave implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Parameters(paramLabel = "CHANNEL", description = "the channel id")
        String id;

        @Override
        public Integer call() {
            String channel = Arguments.uuid("the channel", id);
            return ChannelWriting.run(
                    connection,
                    "leave",
                    channels -> channels.leave(channel),
                    (written, described) -> "left " + described);
        }
    }
}
