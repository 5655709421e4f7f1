package chat.buzz.protocol;

/** One way of checking BIP-340 signatures; {@link SchnorrVerifiers} picks the one the process uses. */
public interface SchnorrVerifier {
    /** For logs and benchmark labels. */
    String name();

    /** Any message length; never throws: malformed input is simply not a valid signature. */
    boolean verify(byte[] publicKey32, byte[] message, byte[] signature64);
}
