package chat.buzz.protocol;

/** BIP-340 in Java (BouncyCastle): works everywhere, several times slower than libsecp256k1. */
final class BouncyCastleSchnorr implements SchnorrVerifier {
    static final BouncyCastleSchnorr INSTANCE = new BouncyCastleSchnorr();

    private BouncyCastleSchnorr() {}

    @Override
    public String name() {
        return "BouncyCastle";
    }

    @Override
    public boolean verify(byte[] publicKey32, byte[] message, byte[] signature64) {
        return Bip340.verifyAnyLength(publicKey32, message, signature64);
    }
}
