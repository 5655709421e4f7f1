package chat.buzz.relay.client;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a subclass of {@link ClientEndToEndFixture} whose relays deliver channel policy changes as
 * entries (gate SCOPED_POLICY on, PROTOCOL 4.4): it runs its superclass's tests in that mode.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface PolicyChangesAsEntries {}
