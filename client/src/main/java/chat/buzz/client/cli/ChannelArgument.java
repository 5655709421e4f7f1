package chat.buzz.client.cli;

import picocli.CommandLine.Parameters;

/** The CHANNEL parameter of the channel commands, checked before the relay is asked (exit 2). */
final class ChannelArgument {
    @Parameters(index = "0", paramLabel = "CHANNEL", description = "the channel id (a UUID)")
    String value;

    String id() {
        return Arguments.uuid("the channel", value);
    }
}
