package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The policy-change runs of one bench/policy-change.sh side by side: per size, gate off, gate on, on / off. */
@Command(name = "PolicyReport", mixinStandardHelpOptions = true, description = "policy-*.json as a table.")
public final class PolicyReport implements Callable<Integer> {
    private static final List<String> FIGURES = List.of(
            "all_hold_d_s",
            "measured_s",
            "clients_hold_d_p50_ms",
            "clients_hold_d_max_ms",
            "clients_not_holding_d",
            "subscribers_hold_d_max_ms",
            "subscribers_not_holding_d",
            "client_sessions_after_the_first",
            "client_resets",
            "subscriber_resets",
            "relay_sent_mb",
            "relay_cpu_s",
            "postgres_cpu_s");

    @Option(names = "--results", defaultValue = "bench/results", description = "the results directory")
    Path dir;

    @Option(names = "--sizes", required = true, split = ",", description = "the sizes the run measured")
    List<Integer> sizes;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PolicyReport()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        for (int size : sizes) {
            JsonNode off = read(size, "off");
            JsonNode on = read(size, "on");
            System.out.printf(
                    Locale.ROOT,
                    "%n%,d artifacts (gate off: %s, gate on: %s; load at the ends %s / %s%s)%n",
                    size,
                    off.path("policy_changes").asText("?"),
                    on.path("policy_changes").asText("?"),
                    off.path("load_average_end").asText("?"),
                    on.path("load_average_end").asText("?"),
                    off.path("load_too_high").asBoolean()
                                    || on.path("load_too_high").asBoolean()
                            ? ", load too high"
                            : "");
            System.out.println("| figure | gate off | gate on | on / off |");
            System.out.println("|---|---|---|---|");
            for (String figure : FIGURES) {
                double a = off.path(figure).asDouble(Double.NaN);
                double b = on.path(figure).asDouble(Double.NaN);
                System.out.printf(
                        Locale.ROOT, "| %s | %s | %s | %.3g |%n", figure, off.path(figure), on.path(figure), b / a);
            }
            System.out.printf(
                    Locale.ROOT,
                    "relay CPU by thread (s), gate off: %s%nrelay CPU by thread (s), gate on: %s%n"
                            + "PostgreSQL CPU by process (s), gate off: %s%nPostgreSQL CPU by process (s), gate on: %s%n",
                    off.path("relay_cpu_s_by_thread"),
                    on.path("relay_cpu_s_by_thread"),
                    off.path("postgres_cpu_s_by_process"),
                    on.path("postgres_cpu_s_by_process"));
        }
        return 0;
    }

    private JsonNode read(int size, String gate) throws IOException {
        Path file = dir.resolve("policy-" + size + "-gate-" + gate + ".json");
        return Files.exists(file) ? SignedCalls.JSON.readTree(file.toFile()) : SignedCalls.JSON.createObjectNode();
    }
}
