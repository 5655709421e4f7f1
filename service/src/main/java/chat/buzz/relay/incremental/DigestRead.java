package chat.buzz.relay.incremental;

/** The answer to a digest read (PROTOCOL 4.4a): |D|, its XOR digest as 64 hex digits, and the policy stamp. */
public record DigestRead(long count, String digest, String policy) {}
