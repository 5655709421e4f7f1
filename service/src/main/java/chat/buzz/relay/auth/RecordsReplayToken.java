package chat.buzz.relay.auth;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a signed resource method that records its request's replay token itself, inside its own
 * transaction ({@link ReplayToken#of}); the filter then verifies the header and leaves the guard to it.
 * Every path through such a method must claim the token once.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface RecordsReplayToken {}
