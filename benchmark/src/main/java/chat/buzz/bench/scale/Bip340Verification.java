package chat.buzz.bench.scale;

import chat.buzz.protocol.Bip340;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.SchnorrVerifier;
import chat.buzz.protocol.SchnorrVerifiers;
import chat.buzz.protocol.Sha256;
import chat.buzz.protocol.Tags;
import java.nio.charset.StandardCharsets;
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
 * JMH: the cost of one BIP-340 verification, and of checking a whole revision event (id hash and
 * signature), so the relay's accepted revisions per second can be read against it; both go through
 * the process's chosen verifier, as the relay's checks do. The same signature checked by
 * libsecp256k1 and by BouncyCastle, in the same run, compares the two paths.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Bip340Verification {
    private byte[] publicKey;
    private byte[] message;
    private byte[] signature;
    private Event revision;
    private SchnorrVerifier libsecp256k1;
    private SchnorrVerifier bouncyCastle;

    @Setup
    public void sign() {
        libsecp256k1 = SchnorrVerifiers.nativeLibrary();
        bouncyCastle = SchnorrVerifiers.bouncyCastle();
        NostrKeys keys = NostrKeys.generate();
        publicKey = chat.buzz.protocol.Hex.decode(keys.publicKeyHex(), 32);
        message = Sha256.digest("benchmark".getBytes(StandardCharsets.UTF_8));
        signature = Bip340.sign(keys.secretKey(), message);
        revision = keys.sign(
                Kinds.ARTIFACT_REVISION,
                System.currentTimeMillis() / 1000,
                List.of(
                        List.of(Tags.ARTIFACT_FLAG, "1"),
                        List.of(Tags.ARTIFACT_ID, UUID.randomUUID().toString()),
                        List.of(Tags.CHANNEL, UUID.randomUUID().toString()),
                        List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                        List.of(Tags.OPERATION, "create"),
                        List.of(Tags.TITLE, "benchmark")),
                "x".repeat(4_400));
    }

    @Benchmark
    public boolean verifySignature() {
        return Bip340.verify(publicKey, message, signature);
    }

    @Benchmark
    public boolean verifyWithLibsecp256k1() {
        return libsecp256k1.verify(publicKey, message, signature);
    }

    @Benchmark
    public boolean verifyWithBouncyCastle() {
        return bouncyCastle.verify(publicKey, message, signature);
    }

    @Benchmark
    public boolean verifyRevisionEvent() {
        return revision.hasValidId() && revision.hasValidSignature();
    }
}
