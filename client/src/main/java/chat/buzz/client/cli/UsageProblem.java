package chat.buzz.client.cli;

/** An option value that only turns out wrong once the command runs (a missing relay URL, a bad scope). */
final class UsageProblem extends RuntimeException {
    UsageProblem(String message) {
        super(message);
    }
}
