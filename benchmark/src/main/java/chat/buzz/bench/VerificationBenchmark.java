package chat.buzz.bench;

import chat.buzz.protocol.Bip340;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Hex;
import chat.buzz.protocol.NostrKeys;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What one write costs in signature checks alone (issue 11.4): BIP-340 verification of a revision
 * event's id, the protocol module's own verifier, and the whole event check (id hash and signature)
 * the relay runs on every write. A write verifies two events: the revision and its NIP-98 header.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class VerificationBenchmark {
    private Event event;
    private byte[] pubkey;
    private byte[] id;
    private byte[] sig;

    @Setup
    public void sign() {
        NostrKeys keys = NostrKeys.generate();
        event = keys.sign(
                45010,
                1_796_000_000L,
                List.of(
                        List.of("ar", "1"),
                        List.of("d", UUID.randomUUID().toString()),
                        List.of("h", UUID.randomUUID().toString()),
                        List.of("type", "task.v1"),
                        List.of("op", "create"),
                        List.of("title", "benchmark task")),
                "benchmark body");
        pubkey = Hex.decode(event.pubkey(), 32);
        id = Hex.decode(event.id(), 32);
        sig = Hex.decode(event.sig(), 64);
    }

    @Benchmark
    public boolean bip340Verify() {
        return Bip340.verify(pubkey, id, sig);
    }

    @Benchmark
    public Event eventVerify() {
        event.verify();
        return event;
    }
}
