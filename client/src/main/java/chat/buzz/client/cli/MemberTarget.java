package chat.buzz.client.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** The CHANNEL and PUBKEY parameters of {@code member add} and {@code member remove}, each checked before the relay is asked. */
final class MemberTarget {
    @Mixin
    ChannelArgument channelArgument;

    @Parameters(index = "1", paramLabel = "PUBKEY", description = "the member's public key (64 hex digits)")
    String pubkey;

    String channel(ConnectionOptions connection) {
        return channelArgument.id(connection);
    }

    String member() {
        return Arguments.pubkey(pubkey);
    }
}
