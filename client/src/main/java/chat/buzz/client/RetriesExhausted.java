package chat.buzz.client;

/** The relay kept refusing one request; the last refusal is the cause. */
public final class RetriesExhausted extends RelayError {
    public RetriesExhausted(String request, int attempts, RelayError last) {
        super(
                last.status(),
                last.code(),
                "gave up " + request + " after " + attempts + " attempts; last answer: " + last.getMessage(),
                null);
        initCause(last);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
