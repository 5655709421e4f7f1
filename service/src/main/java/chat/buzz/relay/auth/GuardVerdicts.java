package chat.buzz.relay.auth;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.web.Refusal;
import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import jakarta.ws.rs.WebApplicationException;
import java.util.function.BooleanSupplier;

/**
 * The replay guard's verdicts on /metrics, counted wherever the token is recorded (the filter, or a
 * write's transaction): failed is the guard itself failing (its store unreachable).
 */
final class GuardVerdicts {
    private final Counter accepted;
    private final Counter replayed;
    private final Counter failed;

    GuardVerdicts(MetricRegistry metrics) {
        this.accepted = metrics.counter("buzz.nip98.replay-guard.accepted");
        this.replayed = metrics.counter("buzz.nip98.replay-guard.replayed");
        this.failed = metrics.counter("buzz.nip98.replay-guard.failed");
    }

    /** Runs the guard's check; a token used already is refused with PROTOCOL 2.1's 401. */
    void require(BooleanSupplier firstUse) {
        boolean first;
        try {
            first = firstUse.getAsBoolean();
        } catch (RuntimeException e) {
            failed.inc();
            throw e;
        }
        (first ? accepted : replayed).inc();
        if (!first) {
            throw unauthorized(ErrorCodes.NIP98_REPLAY);
        }
    }

    static WebApplicationException unauthorized(String reason) {
        return new WebApplicationException(Refusal.bare(401, reason).response());
    }
}
