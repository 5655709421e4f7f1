package chat.buzz.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The cost of a digest read (PROTOCOL 4.4a) against a bootstrap page: seeds one channel with N
 * artifacts, then times alternating pairs of a digest read of that channel and the first bootstrap
 * page of 100 of it, one client, sequential. Prints a Markdown table for docs/benchmarks.md. Run by
 * bench/digest.sh.
 */
@Command(name = "DigestBenchmark", mixinStandardHelpOptions = true, description = "Digest read against a page.")
public final class DigestBenchmark implements Callable<Integer> {
    @Option(names = "--url", required = true, description = "the relay's base URL")
    String baseUrl;

    @Option(names = "--artifacts", defaultValue = "10050", description = "artifacts seeded in the channel")
    int artifacts;

    @Option(names = "--warmups", defaultValue = "10", description = "pairs before the measured ones")
    int warmups;

    @Option(names = "--pairs", defaultValue = "40", description = "measured pairs")
    int pairs;

    public static void main(String[] args) {
        System.exit(new CommandLine(new DigestBenchmark()).execute(args));
    }

    @Override
    public Integer call() {
        System.out.println("seeding " + artifacts + " artifacts in one channel ...");
        Seed seed = Seed.create(baseUrl, artifacts);
        SignedCalls calls = new SignedCalls(baseUrl);
        String digest = "[{\"artifact\":\"incremental\",\"digest\":true,\"#h\":[\"" + seed.channel() + "\"]}]";
        String page = "[{\"artifact\":\"incremental\",\"limit\":100,\"#h\":[\"" + seed.channel() + "\"]}]";
        JsonNode answer =
                calls.post(seed.keys(), "/query", digest).expectOk("digest").json();
        if (answer.path("count").asLong() != artifacts) {
            throw new IllegalStateException("the digest read counted " + answer + ", not " + artifacts);
        }
        for (int i = 0; i < warmups; i++) {
            calls.post(seed.keys(), "/query", digest).expectOk("digest");
            calls.post(seed.keys(), "/query", page).expectOk("page");
        }
        Timings digestReads = new Timings();
        Timings pageReads = new Timings();
        for (int i = 0; i < pairs; i++) {
            digestReads.add(
                    calls.post(seed.keys(), "/query", digest).expectOk("digest").nanos());
            pageReads.add(
                    calls.post(seed.keys(), "/query", page).expectOk("page").nanos());
        }
        System.out.println();
        System.out.println("| read | median ms | p90 ms | load |");
        System.out.println("|---|---|---|---|");
        row("digest read, D = " + String.format(Locale.ROOT, "%,d", artifacts), digestReads);
        row("bootstrap page of 100", pageReads);
        Load.figure(
                "A digest read costs %.1f bootstrap pages of 100 (medians); a full bootstrap is %d pages.",
                digestReads.medianMillis() / pageReads.medianMillis(), (artifacts + 99) / 100);
        return 0;
    }

    private static void row(String read, Timings timings) {
        Load.row("| %s | %.1f | %.1f |", read, timings.medianMillis(), timings.percentileMillis(0.9));
    }
}
