package chat.buzz.client.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code member add|remove}: NIP-29 kinds 9000 and 9001 (PROTOCOL 3.1), by an owner or admin. */
@Command(
        name = "member",
        mixinStandardHelpOptions = true,
        description = "Adds a member to a channel or removes one (owner or admin).",
        subcommands = {MemberCommand.Add.class, MemberCommand.Remove.class})
final class MemberCommand implements Runnable {
    @Override
    public void run() {
        throw new UsageProblem("name what to do: member add or member remove");
    }

    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = "Adds (or re-adds) a member: from now on they read the channel's artifacts.")
    static final class Add implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Mixin
        MemberTarget target;

        @Option(names = "--role", description = "admin or member (default: member)")
        String role;

        @Override
        public Integer call() {
            String channel = target.channel(connection);
            String member = target.member();
            if (role != null && !role.equals("admin") && !role.equals("member")) {
                throw new UsageProblem("--role is admin or member, not '" + role + "'");
            }
            return ChannelWriting.run(
                    connection,
                    "member add",
                    channels -> channels.addMember(channel, member, Optional.ofNullable(role)),
                    (written, described) -> "member added: " + member + " to " + described + " as "
                            + written.channel().map(c -> c.role(member)).orElse(role == null ? "member" : role));
        }
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Removes a member: from now on they no longer read a private channel's artifacts.")
    static final class Remove implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Mixin
        MemberTarget target;

        @Override
        public Integer call() {
            String channel = target.channel(connection);
            String member = target.member();
            return ChannelWriting.run(
                    connection,
                    "member remove",
                    channels -> channels.removeMember(channel, member),
                    (written, described) -> "member removed: " + member + " from " + described);
        }
    }
}
