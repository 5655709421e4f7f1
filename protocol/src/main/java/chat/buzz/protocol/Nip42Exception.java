package chat.buzz.protocol;

/** The message is the reason the relay reports in its OK/CLOSED reply. */
public class Nip42Exception extends RuntimeException {
    public Nip42Exception(String reason) {
        super(reason);
    }
}
