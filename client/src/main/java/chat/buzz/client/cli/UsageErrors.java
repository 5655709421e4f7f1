package chat.buzz.client.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How a command line picocli cannot parse is reported: one {@code buzz-sync:} line saying what was
 * wrong, then a hint naming the help of a command that exists, instead of picocli's full usage text.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException error, String[] args) {
        CommandLine line = error.getCommandLine();
        PrintWriter err = line.getErr();
        err.println("buzz-sync: " + message(error));
        err.println(hint(line));
        err.flush();
        return ExitCode.USAGE;
    }

    /** {@code Try 'buzz-sync channel edit --help'.}: the full name of the command that was being parsed. */
    static String hint(CommandLine line) {
        return "Try '" + line.getCommandSpec().qualifiedName() + " --help'.";
    }

    static String message(ParameterException error) {
        if (error instanceof UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            return unmatched(unmatched);
        }
        return oneLine(error.getMessage());
    }

    private static String unmatched(UnmatchedArgumentException error) {
        CommandSpec command = error.getCommandLine().getCommandSpec();
        String first = error.getUnmatched().get(0);
        List<String> suggestions = error.getSuggestions();
        String didYouMean = suggestions.isEmpty() ? "" : "; did you mean " + String.join(" or ", suggestions) + "?";
        if (first.startsWith("-")) {
            return "unknown option '" + first + "' for " + command.qualifiedName() + didYouMean;
        }
        List<String> commands = command.subcommands().keySet().stream()
                .filter(name -> !name.equals("help"))
                .toList();
        if (!commands.isEmpty()) {
            return "unknown command '" + first + "' (" + command.qualifiedName() + " takes " + list(commands) + ")"
                    + didYouMean;
        }
        return "unexpected argument '" + first + "' for " + command.qualifiedName() + didYouMean;
    }

    /** {@code a, b or c}. */
    static String list(List<String> names) {
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    private static String oneLine(String message) {
        String text = message == null ? "invalid command line" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
        return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
