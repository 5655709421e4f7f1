package chat.buzz.relay.identity;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.database.UnsetVariable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The relay's own key pair: it signs the events the relay creates (removal markers).
 * The secret comes from configuration (BUZZ_RELAY_SECRET_KEY) or, in local mode, from a key
 * file generated on first start. It is never logged.
 */
public final class RelayIdentity {
    private final NostrKeys keys;

    private RelayIdentity(NostrKeys keys) {
        this.keys = keys;
    }

    private static final String VARIABLE = "BUZZ_RELAY_SECRET_KEY (relay.secretKey)";
    private static final String HOW_TO_GENERATE =
            "generate one with `openssl rand -hex 32` and give every instance " + "of the deployment the same key";

    public static RelayIdentity load(RelayConfig config) {
        String secret = config.getSecretKey();
        if (UnsetVariable.isPlaceholder(secret)
                || secret.isEmpty() && config.getKeyFile().isEmpty()) {
            throw new IllegalStateException(VARIABLE + " is not set; " + HOW_TO_GENERATE);
        }
        if (!secret.isEmpty()) {
            try {
                return new RelayIdentity(NostrKeys.fromSecretHex(secret));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(
                        VARIABLE + " is not a usable secret key (" + e.getMessage() + "); " + HOW_TO_GENERATE);
            }
        }
        return new RelayIdentity(loadOrCreate(Path.of(config.getKeyFile())));
    }

    private static NostrKeys loadOrCreate(Path file) {
        try {
            if (Files.exists(file)) {
                return NostrKeys.fromSecretHex(
                        Files.readString(file, StandardCharsets.US_ASCII).trim());
            }
            NostrKeys generated = NostrKeys.generate();
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path temporary = Files.createTempFile(
                    parent,
                    ".relay-key",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(Set.of(
                            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE)));
            Files.writeString(
                    temporary, chat.buzz.protocol.Hex.encode(generated.secretKey()), StandardCharsets.US_ASCII);
            Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return generated;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the relay key file " + file, e);
        }
    }

    public NostrKeys keys() {
        return keys;
    }

    public String publicKeyHex() {
        return keys.publicKeyHex();
    }
}
