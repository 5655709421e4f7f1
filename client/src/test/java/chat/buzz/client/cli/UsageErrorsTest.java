package chat.buzz.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A command line picocli cannot parse, and the other errors a new user met, each one line with its exit code. */
class UsageErrorsTest {
    private static final String CHANNEL = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final Pattern HINT = Pattern.compile("^Try '(buzz-sync(?: [a-z]+)*) --help'\\.$");

    @TempDir
    Path directory;

    /**
     * Each mistake: the command line (split on spaces), the start of the one error line, and the command
     * whose help the hint names.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "edit --name garden| unknown command 'edit' (buzz-sync takes keygen, sync, follow, get, list, write,"
                        + " whoami, verify, channels, channel, member, join or leave)| buzz-sync",
                "add x| unknown command 'add' (buzz-sync takes keygen| buzz-sync",
                "channel edti " + CHANNEL + "| unknown command 'edti' (buzz-sync channel takes create, edit or delete)"
                        + "| buzz-sync channel",
                "channel edit " + CHANNEL + " --bogus| unknown option '--bogus' for buzz-sync channel edit"
                        + "| buzz-sync channel edit",
                "sync --bogus| unknown option '--bogus' for buzz-sync sync| buzz-sync sync",
                "member add " + CHANNEL + "| missing required parameter: 'PUBKEY'| buzz-sync member add",
                "channel create| missing required option: '--name=<name>'| buzz-sync channel create",
                "member add " + CHANNEL + " a b| unexpected argument 'b' for buzz-sync member add"
                        + "| buzz-sync member add",
                "channel| name what to do: channel create, channel edit or channel delete| buzz-sync channel",
                "member| name what to do: member add or member remove| buzz-sync member",
                "--bogus| unknown option '--bogus' for buzz-sync| buzz-sync",
            })
    void aMistakeIsOneLineThenAHintNamingACommandThatExists(String line, String error, String helpOf) {
        CommandLineTest.Outcome outcome = CommandLineTest.run(line.split(" "));
        assertThat(outcome.exit()).as(line).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.out()).isEmpty();
        List<String> lines = outcome.err().lines().toList();
        assertThat(lines).as(outcome.err()).hasSize(2);
        assertThat(lines.get(0)).startsWith("buzz-sync: " + error);
        Matcher hint = HINT.matcher(lines.get(1));
        assertThat(hint.matches()).as(lines.get(1)).isTrue();
        assertThat(hint.group(1)).isEqualTo(helpOf);
        String[] help = (hint.group(1).substring("buzz-sync".length()).strip() + " --help")
                .strip()
                .split(" ");
        CommandLineTest.Outcome helped = CommandLineTest.run(help);
        assertThat(helped.exit()).as(String.join(" ", help)).isZero();
        assertThat(helped.out()).startsWith("Usage: " + helpOf);
    }

    @Test
    void aHostNameThatDoesNotResolveIsSaidSo() throws Exception {
        Path key = directory.resolve("k.key");
        CommandLineTest.run("keygen", "--key", key.toString());
        CommandLineTest.Outcome outcome = CommandLineTest.run(
                "whoami",
                "--relay",
                "http://no-such-relay.invalid:8080",
                "--key",
                key.toString(),
                "--store",
                directory.resolve("s.db").toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(outcome.err().lines().toList())
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("buzz-sync: cannot reach the relay: GET / to http://no-such-relay.invalid:8080:"
                        + " cannot resolve no-such-relay.invalid (check --relay")
                .doesNotContain("refused");
    }

    @Test
    void aKeyFileOfRandomBytesSaysWhatAKeyFileHolds() throws Exception {
        byte[] noise = new byte[64];
        new java.util.Random(7).nextBytes(noise);
        noise[0] = (byte) 0xff; // never ASCII, whatever the seed gives
        Path key = Files.write(directory.resolve("noise.key"), noise);
        CommandLineTest.Outcome outcome =
                CommandLineTest.run("whoami", "--relay", "http://127.0.0.1:1", "--key", key.toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(outcome.err())
                .isEqualTo(
                        "buzz-sync: the key file " + key + " is not a key: it holds 64 bytes that are not text; a key"
                                + " file holds one line of 64 hex digits, a secp256k1 secret key (buzz-sync keygen writes one)\n");
    }

    @Test
    void unlistedTakesTrueOrFalseOrNothing() {
        Path key = directory.resolve("k.key");
        CommandLineTest.run("keygen", "--key", key.toString());
        for (List<String> unlisted :
                List.of(List.of("--unlisted", "true"), List.of("--unlisted", "false"), List.of("--unlisted"))) {
            for (String command : List.of("edit " + CHANNEL, "create --name plans")) {
                List<String> args = new java.util.ArrayList<>(List.of(("channel " + command).split(" ")));
                args.addAll(unlisted);
                args.addAll(List.of(
                        "--relay",
                        "http://127.0.0.1:1",
                        "--key",
                        key.toString(),
                        "--store",
                        directory.resolve("s.db").toString()));
                CommandLineTest.Outcome outcome = CommandLineTest.run(args.toArray(String[]::new));
                assertThat(outcome.exit()).as(args + ": " + outcome.err()).isEqualTo(ExitCode.UNAVAILABLE);
            }
        }
        CommandLineTest.Outcome wrong = CommandLineTest.run("channel", "edit", CHANNEL, "--unlisted", "maybe");
        assertThat(wrong.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(wrong.err()).startsWith("buzz-sync: ");
    }
}
