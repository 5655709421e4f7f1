package chat.buzz.client.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The buzz-sync command line: keeps a local store equal to what a key may see on a Buzz relay. */
@Command(
        name = "buzz-sync",
        mixinStandardHelpOptions = true,
        version = "buzz-sync 0.1.0",
        description = "Keeps a local store equal to what your key may see on a Buzz relay, and checks it.",
        subcommands = {
            KeygenCommand.class,
            SyncCommand.class,
            FollowCommand.class,
            GetCommand.class,
            ListCommand.class,
            WriteCommand.class,
            WhoamiCommand.class,
            VerifyCommand.class,
            ChannelsCommand.class,
            ChannelCommand.class,
            MemberCommand.class,
            MembershipCommands.Join.class,
            MembershipCommands.Leave.class,
            CommandLine.HelpCommand.class
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0 done",
            "  1 unexpected error (a bug)",
            "  2 usage error",
            "  3 the relay refused the request",
            "  4 the relay is unreachable, busy or off (after retries)",
            "  5 the key or store file is unusable",
            "  6 verify: the store differs from the relay",
            "  7 write, channel, member, join, leave: the relay did not accept the event",
            "  8 get: no such artifact"
        })
public final class BuzzSync implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final boolean stderrIsTerminal;

    BuzzSync(boolean stderrIsTerminal) {
        this.stderrIsTerminal = stderrIsTerminal;
    }

    public static void main(String[] args) {
        System.exit(run(
                args, new PrintWriter(System.out, true), new PrintWriter(System.err, true), Terminal.stderrIsOne()));
    }

    /** Runs one command line with stderr taken for a file (no redrawn progress); returns its exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, false);
    }

    static int run(String[] args, PrintWriter out, PrintWriter err, boolean stderrIsTerminal) {
        CommandLine commandLine = new CommandLine(new BuzzSync(stderrIsTerminal));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler(new UsageErrors());
        commandLine.setExecutionExceptionHandler((error, line, parsed) -> {
            Problems.Problem problem = Problems.of(error);
            line.getErr().println("buzz-sync: " + problem.message());
            if (problem.exitCode() == ExitCode.USAGE) {
                line.getErr().println(UsageErrors.hint(line));
            }
            line.getErr().flush();
            return problem.exitCode();
        });
        return commandLine.execute(args);
    }

    /** Whether progress may be redrawn in place with carriage returns. */
    boolean stderrIsTerminal() {
        return stderrIsTerminal;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "name a command: keygen, sync, follow, get, list, write, whoami, verify, channels, channel,"
                        + " member, join or leave");
    }
}
