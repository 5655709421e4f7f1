package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Collects the per-size results of {@link ScaleBenchmark} and the JMH run into scale.json, prints them
 * as a Markdown table, and draws scale.svg ({@link ScaleChart}): the main latencies against size, both
 * axes logarithmic.
 *
 * Run by bench/scale.sh.
 */
public final class ScaleReport {
    /** Figure name, then the JSON path within one size's result. */
    private static final List<String[]> ROWS = List.of(
            row("seeding (s)", "seed_s"),
            row("seed read back / digest matches", "seed_read_back", "seed_digest_matches"),
            row("bootstrap, pages of 100: ms (median of the rounds)", "bootstrap/ms"),
            row("bootstrap pages / entries / distinct", "bootstrap/pages", "bootstrap/entries", "bootstrap/distinct"),
            row("bootstrap entries/s / MB / MB/s", "bootstrap/entries_per_s", "bootstrap/mb", "bootstrap/mb_per_s"),
            row("SQL floor ms, median (rows, MB)", "sql_floor/ms", "sql_floor/rows", "sql_floor/mb"),
            row("bootstrap / SQL floor", "bootstrap/floor_ratio"),
            row(
                    "bootstrap, pages of 1000: ms, pages, MB",
                    "bootstrap_1000/ms",
                    "bootstrap_1000/pages",
                    "bootstrap_1000/mb"),
            row("bootstrap, pages of 1000 / SQL floor", "bootstrap_1000/floor_ratio"),
            row(
                    "current reload, limit 100: ms (pages, entries)",
                    "current_reload_100/ms",
                    "current_reload_100/pages",
                    "current_reload_100/entries"),
            row("  x bootstrap (pages of 100)", "current_reload_100/ratio_to_bootstrap"),
            row(
                    "current reload, limit 1000: ms (pages, entries)",
                    "current_reload/ms",
                    "current_reload/pages",
                    "current_reload/entries"),
            row(
                    "  x bootstrap (pages of 100 / of 1000)",
                    "current_reload/ratio_to_bootstrap",
                    "current_reload/ratio_to_bootstrap_same_pages"),
            row("unsigned NIP-11 GET ms (median / p99)", "nip11/median_ms", "nip11/p99_ms"),
            row("trivial signed request ms (median / p99)", "trivial/median_ms", "trivial/p99_ms"),
            row("  x NIP-11 GET", "trivial/ratio_to_nip11"),
            row(
                    "no-change delta after bootstrap ms (median / p99)",
                    "delta_after_bootstrap/median_ms",
                    "delta_after_bootstrap/p99_ms"),
            row(
                    "  entries (first / max), x trivial",
                    "delta_after_bootstrap/entries_first",
                    "delta_after_bootstrap/entries_max",
                    "delta_after_bootstrap/ratio_to_trivial"),
            row(
                    "no-change delta after overlap ms (median / p99)",
                    "delta_after_overlap/median_ms",
                    "delta_after_overlap/p99_ms"),
            row(
                    "  entries (max), x trivial",
                    "delta_after_overlap/entries_max",
                    "delta_after_overlap/ratio_to_trivial"),
            row(
                    "one-change delta ms (median), entries (median / max)",
                    "delta_one_change/median_ms",
                    "delta_one_change/entries_median",
                    "delta_one_change/entries_max"),
            row("known-ID 100 ms (median / p99)", "known_id_100/median_ms", "known_id_100/p99_ms"),
            row(
                    "  bootstrap page of 100 ms (mean), known-ID x page",
                    "known_id_100/bootstrap_page_ms",
                    "known_id_100/ratio_to_bootstrap_page"),
            row("grant 100 channels: ms, pages, entries", "grant/ms", "grant/pages", "grant/entries"),
            row("writes/s, 1 writer (409s)", "writes_1/per_second", "writes_1/refused"),
            row("writes/s, 8 writers (409s)", "writes_8/per_second", "writes_8/refused"),
            row("crowd bootstrap: clients, total s", "crowd/clients", "crowd/total_s"),
            row("  503s, failed, entries", "crowd/refusals_503", "crowd/failed", "crowd/entries"),
            row("fan-out: subscribers, p50 / p99 ms", "fan_out/subscribers", "fan_out/p50_ms", "fan_out/p99_ms"),
            row("  frames delivered / expected", "fan_out/frames_delivered", "fan_out/frames_expected"),
            row("peak relay heap used MiB", "peak_heap_mib"),
            row("load average at start / end, too high", "load_average_start", "load_average_end", "load_too_high"));

    @Command(
            name = "ScaleReport",
            mixinStandardHelpOptions = true,
            description = "scale-*.json to a table and a chart.")
    static final class Options implements Callable<Integer> {
        @Option(names = "--results", defaultValue = "bench/results", description = "the results directory")
        Path dir;

        @Override
        public Integer call() throws IOException {
            report(dir);
            return 0;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Options()).execute(args));
    }

    private static void report(Path dir) throws IOException {
        List<JsonNode> sizes = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("scale-\\d+\\.json"))
                    .toList()) {
                sizes.add(SignedCalls.JSON.readTree(file.toFile()));
            }
        }
        sizes.sort(Comparator.comparingLong(node -> node.path("artifacts").asLong()));
        ObjectNode all = SignedCalls.JSON.createObjectNode();
        ArrayNode bySize = all.putArray("sizes");
        sizes.forEach(bySize::add);
        Path jmh = dir.resolve("jmh-bip340.json");
        if (Files.exists(jmh)) {
            for (JsonNode benchmark : SignedCalls.JSON.readTree(jmh.toFile())) {
                String name = benchmark.path("benchmark").asText().replaceAll(".*\\.", "");
                all.put(
                        "jmh_" + name + "_us",
                        Timings.round(
                                benchmark.path("primaryMetric").path("score").asDouble()));
            }
        }
        SignedCalls.JSON
                .writerWithDefaultPrettyPrinter()
                .writeValue(dir.resolve("scale.json").toFile(), all);
        System.out.print(table(sizes, all));
        Files.writeString(dir.resolve("scale.svg"), ScaleChart.chart(sizes));
        System.out.println("\nresults: " + dir.resolve("scale.json") + ", " + dir.resolve("scale.svg"));
    }

    private static String[] row(String label, String... paths) {
        String[] row = new String[paths.length + 1];
        row[0] = label;
        System.arraycopy(paths, 0, row, 1, paths.length);
        return row;
    }

    static String table(List<JsonNode> sizes, JsonNode all) {
        StringBuilder out = new StringBuilder("| figure |");
        sizes.forEach(size -> out.append(
                String.format(Locale.ROOT, " %,d |", size.path("artifacts").asLong())));
        out.append("\n|---|").append("---|".repeat(sizes.size())).append('\n');
        for (String[] row : ROWS) {
            out.append("| ").append(row[0]).append(" |");
            for (JsonNode size : sizes) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i < row.length; i++) {
                    values.add(text(at(size, row[i])));
                }
                out.append(' ').append(String.join(" / ", values)).append(" |");
            }
            out.append('\n');
        }
        all.fields().forEachRemaining(field -> {
            if (field.getKey().startsWith("jmh_")) {
                out.append(String.format(
                        Locale.ROOT,
                        "%nJMH %s: %.2f µs per call (%,.0f per second on one core)",
                        field.getKey().substring(4),
                        field.getValue().asDouble(),
                        1e6 / field.getValue().asDouble()));
            }
        });
        return out.append('\n').toString();
    }

    static JsonNode at(JsonNode node, String path) {
        for (String part : path.split("/")) {
            node = node.path(part);
        }
        return node;
    }

    private static String text(JsonNode value) {
        if (value.isMissingNode() || value.isNull()) {
            return "–";
        }
        if (value.isIntegralNumber()) {
            return String.format(Locale.ROOT, "%,d", value.asLong());
        }
        if (value.isNumber()) {
            return String.format(Locale.ROOT, "%,.2f", value.asDouble());
        }
        return value.asText();
    }
}
