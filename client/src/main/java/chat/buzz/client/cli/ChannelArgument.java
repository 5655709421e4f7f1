package chat.buzz.client.cli;

import picocli.CommandLine.Parameters;

/** The CHANNEL parameter of the channel commands: an id or a name the store knows, checked before the relay is asked. */
final class ChannelArgument {
    @Parameters(
            index = "0",
            paramLabel = "CHANNEL",
            description = "the channel: its id (a UUID) or its name, as the store last heard it")
    String value;

    String id(ConnectionOptions connection) {
        return connection.channel("CHANNEL", value);
    }
}
