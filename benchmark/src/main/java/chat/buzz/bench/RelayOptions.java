package chat.buzz.bench;

import java.net.URI;
import java.net.http.HttpClient;
import picocli.CommandLine.Option;

/** The options that name the relay under test, shared by the benchmarks that sample it (a picocli mixin). */
public final class RelayOptions {
    @Option(names = "--url", required = true, description = "the relay's base URL, on 127.0.0.1")
    public String baseUrl;

    @Option(names = "--admin-url", description = "the relay's admin base URL (for /metrics)")
    public String adminUrl;

    @Option(names = "--admin-token", description = "the relay's admin token")
    public String adminToken;

    @Option(names = "--relay-pid", description = "the relay's process id (CPU and RSS from /proc)")
    public long relayPid;

    /** Benchmarks drive a relay on this machine only: they are load, and they read its /proc. */
    public void requireLoopback() {
        for (String url : new String[] {baseUrl, adminUrl}) {
            if (url != null && !"127.0.0.1".equals(URI.create(url).getHost())) {
                throw new IllegalArgumentException("the benchmark runs against 127.0.0.1 only, not " + url);
            }
        }
    }

    public RelaySampler sampler(HttpClient http) {
        if (adminUrl == null || adminToken == null || relayPid == 0) {
            throw new IllegalArgumentException("sampling the relay needs --admin-url, --admin-token and --relay-pid");
        }
        return new RelaySampler(http, adminUrl, adminToken, relayPid);
    }
}
