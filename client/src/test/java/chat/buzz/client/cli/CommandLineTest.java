package chat.buzz.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.RelayError;
import chat.buzz.client.RetriesExhausted;
import chat.buzz.client.StoreFailure;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line without a relay: help, usage errors, local files, and the message of every error code. */
class CommandLineTest {
    @TempDir
    Path directory;

    record Outcome(int exit, String out, String err) {}

    static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = BuzzSync.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(exit, out.toString(), err.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"keygen", "sync", "follow", "get", "list", "write", "whoami", "verify"})
    void everyCommandExplainsItselfWithHelp(String command) {
        Outcome outcome = run(command, "--help");
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.out()).startsWith("Usage: buzz-sync " + command).contains("-h, --help");
        if (!command.equals("keygen")) {
            assertThat(outcome.out()).contains("--store=FILE");
        }
        if (!command.equals("keygen") && !command.equals("list")) {
            assertThat(outcome.out()).contains("--relay=URL", "--key=FILE", "--scope=CHANNEL");
        }
    }

    @Test
    void whoamiHelpNamesItsOptionsAndWhereTheChannelsComeFrom() {
        Outcome outcome = run("whoami", "--help");
        assertThat(outcome.out())
                .contains(
                        "--json", "print one JSON object instead of text", "--sync", "channel metadata (PROTOCOL 4.6)");
    }

    @Test
    void theTopLevelHelpListsEveryCommandAndTheExitCodes() {
        Outcome outcome = run("--help");
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.out())
                .contains(
                        "keygen",
                        "sync",
                        "follow",
                        "get",
                        "list",
                        "write",
                        "whoami",
                        "verify",
                        "Exit codes:",
                        "6 verify: the store differs from the relay");
    }

    @Test
    void noCommandIsAUsageError() {
        Outcome outcome = run();
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err()).contains("name a command: keygen, sync");
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        Outcome outcome = run("sync", "--bogus");
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err())
                .isEqualTo("buzz-sync: unknown option '--bogus' for buzz-sync sync\nTry 'buzz-sync sync --help'.\n");
    }

    @Test
    void keygenWritesAnOwnerOnlyKeyAndRefusesToOverwriteIt() throws Exception {
        Path key = directory.resolve("keys/me.key");
        Outcome first = run("keygen", "--key", key.toString());
        assertThat(first.exit()).isZero();
        assertThat(first.out()).containsPattern("public key [0-9a-f]{64}");
        assertThat(Files.readString(key).trim()).matches("[0-9a-f]{64}");
        assertThat(Files.getPosixFilePermissions(key))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        Outcome again = run("keygen", "--key", key.toString());
        assertThat(again.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(again.err()).contains("a key file already exists at " + key, "use --force");
        assertThat(run("keygen", "--key", key.toString(), "--force").exit()).isZero();
    }

    @Test
    void aMissingRelayIsAUsageError() {
        Outcome outcome = run("sync", "--key", directory.resolve("none").toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err()).contains("no relay given: use --relay URL or set BUZZ_RELAY");
    }

    @Test
    void aMissingKeyFileSaysHowToMakeOne() {
        Path missing = directory.resolve("missing.key");
        Outcome outcome = run("sync", "--relay", "http://127.0.0.1:9", "--key", missing.toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(outcome.err()).contains("no key file at " + missing, "buzz-sync keygen --key " + missing);
    }

    @Test
    void aDamagedKeyFileIsNamed() throws Exception {
        Path key = Files.writeString(directory.resolve("bad.key"), "not a key\n");
        Outcome outcome = run("whoami", "--relay", "http://127.0.0.1:9", "--key", key.toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.LOCAL);
        assertThat(outcome.err()).contains("does not hold a secret key as 64 hex digits");
    }

    @Test
    void badScopesAndRelayUrlsAreUsageErrors() {
        Path key = directory.resolve("k.key");
        run("keygen", "--key", key.toString());
        Outcome scope = run("sync", "--relay", "http://127.0.0.1:9", "--key", key.toString(), "--scope", "general");
        assertThat(scope.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(scope.err()).contains("--scope: 'general' is not a channel id, and there is no store at");
        Outcome url = run("sync", "--relay", "relay.example.com", "--key", key.toString());
        assertThat(url.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(url.err()).contains("relay URL must look like https://relay.example.com");
    }

    @Test
    void getOfAnIdNotInTheStoreSaysSo() {
        String id = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
        Path store = directory.resolve("s.db");
        chat.buzz.client.SqliteStore.open(store).close();
        Outcome outcome = run("get", id, "--store", store.toString());
        assertThat(outcome.exit()).isEqualTo(ExitCode.NOT_FOUND);
        assertThat(outcome.err()).contains("no artifact " + id + " in the store");
        Outcome bad = run("get", "nope", "--store", store.toString());
        assertThat(bad.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.err())
                .contains("an artifact id takes a lowercase hyphenated UUID")
                .contains("not 'nope'");
    }

    @Test
    void listOfAnEmptyStore() {
        Path store = directory.resolve("s.db");
        chat.buzz.client.SqliteStore.open(store).close();
        Outcome outcome = run("list", "--store", store.toString());
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.out()).contains("0 artifacts");
        assertThat(run("list", "--json", "--store", store.toString()).out().trim())
                .isEqualTo("[]");
    }

    @Test
    void writeUsageErrorsNameWhatIsMissing() {
        Path key = directory.resolve("k.key");
        run("keygen", "--key", key.toString());
        String[] common = {
            "--relay",
            "http://127.0.0.1:9",
            "--key",
            key.toString(),
            "--store",
            directory.resolve("s.db").toString()
        };
        assertThat(write(common, "--op", "rename").err())
                .contains("--op is one of create, update, move, delete, restore; not 'rename'");
        assertThat(write(common, "--op", "update").err())
                .contains("--id must be the artifact's lowercase hyphenated UUID for update");
        assertThat(write(common, "--op", "update", "--id", "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00")
                        .err())
                .contains("is not in the store: run sync first, or name the head with --prev");
        assertThat(write(common, "--json", directory.resolve("nothing.json").toString())
                        .err())
                .contains("no such file");
    }

    private static Outcome write(String[] common, String... args) {
        String[] all = new String[common.length + args.length + 1];
        all[0] = "write";
        System.arraycopy(common, 0, all, 1, common.length);
        System.arraycopy(args, 0, all, 1 + common.length, args.length);
        Outcome outcome = run(all);
        assertThat(outcome.exit()).as(outcome.err()).isEqualTo(ExitCode.USAGE);
        return outcome;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "incremental_invalid_request",
                "incremental_invalid_cursor",
                "incremental_cursor_mismatch",
                "incremental_scope_too_large",
                "incremental_too_many_ids",
                "incremental_ttl_channel",
                "incremental_unavailable",
                "incremental_capacity",
                "incremental_timeout",
                "unknown community",
                "missing Nostr auth",
                "NIP-98: created_at too far from now",
                "NIP-98: replay detected",
                "sync_unavailable"
            })
    void everyProtocolErrorGetsItsOwnAdvice(String code) {
        String advice = Problems.advice(code);
        assertThat(advice).startsWith(" (").endsWith(")");
        int status = code.startsWith("incremental_unavailable")
                        || code.equals("incremental_capacity")
                        || code.equals("incremental_timeout")
                ? 503
                : code.startsWith("NIP") || code.startsWith("missing") ? 401 : 400;
        Problems.Problem problem = Problems.of(new RelayError(status, code, "the relay's words", null));
        assertThat(problem.message())
                .isEqualTo("relay answered " + status + " " + code + ": the relay's words" + advice);
        assertThat(problem.exitCode()).isEqualTo(status == 503 ? ExitCode.UNAVAILABLE : ExitCode.REFUSED);
    }

    @Test
    void theOtherFailuresMapToTheirExitCodes() {
        assertThat(Problems.of(new RetriesExhausted(
                        "a delta read", 8, new RelayError(503, "incremental_capacity", "busy", Duration.ofSeconds(3)))))
                .isEqualTo(
                        new Problems.Problem(
                                ExitCode.UNAVAILABLE,
                                "gave up a delta read after 8 attempts; last answer: busy (the relay is busy; try again in a little while)"));
        assertThat(Problems.of(RelayError.unreachable("GET / to http://x", new java.net.ConnectException()))
                        .message())
                .isEqualTo(
                        "cannot reach the relay: GET / to http://x: connection refused (check --relay, that the relay"
                                + " runs, and your network)");
        assertThat(Problems.of(new StoreFailure("the store failed: disk full", null))
                        .exitCode())
                .isEqualTo(ExitCode.LOCAL);
        assertThat(Problems.of(new chat.buzz.client.ProtocolViolation("an entry without d"))
                        .message())
                .isEqualTo("the relay broke the protocol: an entry without d");
        assertThat(Problems.of(new IllegalStateException("boom")).exitCode()).isEqualTo(ExitCode.INTERNAL);
        assertThat(Set.of(
                        ExitCode.OK,
                        ExitCode.INTERNAL,
                        ExitCode.USAGE,
                        ExitCode.REFUSED,
                        ExitCode.UNAVAILABLE,
                        ExitCode.LOCAL,
                        ExitCode.DRIFT,
                        ExitCode.NOT_ACCEPTED,
                        ExitCode.NOT_FOUND))
                .hasSize(9);
    }
}
