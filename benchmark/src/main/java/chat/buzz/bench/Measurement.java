package chat.buzz.bench;

/** Requests completed in a timed window, with their latencies. */
record Measurement(String scenario, int threads, double seconds, long ok, long failed, Timings latencies) {

    double throughput() {
        return ok / seconds;
    }
}
