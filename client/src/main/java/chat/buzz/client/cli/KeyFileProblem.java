package chat.buzz.client.cli;

/** The key file is missing, unreadable or holds no valid secret key. */
final class KeyFileProblem extends RuntimeException {
    KeyFileProblem(String message) {
        super(message);
    }
}
