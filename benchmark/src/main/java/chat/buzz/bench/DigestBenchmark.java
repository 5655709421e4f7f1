package chat.buzz.bench;

import chat.buzz.protocol.Nip98;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * The cost of a digest read (PROTOCOL 4.4a) against a bootstrap page: seeds one channel with N
 * artifacts, then times alternating pairs of a digest read of that channel and the first bootstrap
 * page of 100 of it, one client, sequential. Prints a Markdown table for docs/benchmarks.md.
 * Run by bench/digest.sh: {@code DigestBenchmark <relay base URL> [artifacts=10050] [warmups=10] [pairs=40]}.
 */
public final class DigestBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DigestBenchmark() {}

    public static void main(String[] args) throws Exception {
        String baseUrl = args[0];
        int artifacts = args.length > 1 ? Integer.parseInt(args[1]) : 10_050;
        int warmups = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int pairs = args.length > 3 ? Integer.parseInt(args[3]) : 40;
        System.out.println("seeding " + artifacts + " artifacts in one channel ...");
        Seed seed = Seed.create(baseUrl, artifacts);
        HttpClient http = HttpClient.newHttpClient();
        String digest = "[{\"artifact\":\"incremental\",\"digest\":true,\"#h\":[\"" + seed.channel() + "\"]}]";
        String page = "[{\"artifact\":\"incremental\",\"limit\":100,\"#h\":[\"" + seed.channel() + "\"]}]";
        JsonNode answer = JSON.readTree(query(http, baseUrl, seed, digest).body);
        if (answer.path("count").asLong() != artifacts) {
            throw new IllegalStateException("the digest read counted " + answer + ", not " + artifacts);
        }
        for (int i = 0; i < warmups; i++) {
            query(http, baseUrl, seed, digest);
            query(http, baseUrl, seed, page);
        }
        double[] digestMillis = new double[pairs];
        double[] pageMillis = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            digestMillis[i] = query(http, baseUrl, seed, digest).millis;
            pageMillis[i] = query(http, baseUrl, seed, page).millis;
        }
        System.out.println();
        System.out.println("| read | median ms | p90 ms |");
        System.out.println("|---|---|---|");
        System.out.println(row("digest read, D = " + String.format(Locale.ROOT, "%,d", artifacts), digestMillis));
        System.out.println(row("bootstrap page of 100", pageMillis));
        System.out.printf(
                Locale.ROOT,
                "%nA digest read costs %.1f bootstrap pages of 100 (medians); a full bootstrap is %d pages.%n",
                percentile(digestMillis, 0.5) / percentile(pageMillis, 0.5),
                (artifacts + 99) / 100);
    }

    private record Timed(String body, double millis) {}

    private static Timed query(HttpClient http, String baseUrl, Seed seed, String filter) throws Exception {
        byte[] body = filter.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/query"))
                .header("Content-Type", "application/json")
                .header(
                        "Authorization",
                        Nip98.authorizationHeader(
                                seed.keys(), "POST", baseUrl + "/query", body, System.currentTimeMillis() / 1000))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        long start = System.nanoTime();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        double millis = (System.nanoTime() - start) / 1e6;
        if (response.statusCode() != 200) {
            throw new IllegalStateException(filter + " answered " + response.statusCode() + " " + response.body());
        }
        return new Timed(response.body(), millis);
    }

    private static String row(String read, double[] millis) {
        return String.format(
                Locale.ROOT, "| %s | %.1f | %.1f |", read, percentile(millis, 0.5), percentile(millis, 0.9));
    }

    private static double percentile(double[] values, double fraction) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
    }
}
