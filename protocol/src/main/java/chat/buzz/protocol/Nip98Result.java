package chat.buzz.protocol;

/** The authenticated caller; {@code eventId} is what the service feeds its replay guard. */
public record Nip98Result(String pubkey, String eventId, long createdAt) {}
