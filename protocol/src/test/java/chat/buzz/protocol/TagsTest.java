package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one place a test spells the tag names out: clients outside this repository depend on them. */
class TagsTest {
    static Stream<Arguments> wireNames() {
        return Stream.of(
                arguments("CHANNEL", Tags.CHANNEL, "h"),
                arguments("ARTIFACT_ID", Tags.ARTIFACT_ID, "d"),
                arguments("ARTIFACT_FLAG", Tags.ARTIFACT_FLAG, "ar"),
                arguments("ARTIFACT_TYPE", Tags.ARTIFACT_TYPE, "type"),
                arguments("TITLE", Tags.TITLE, "title"),
                arguments("OPERATION", Tags.OPERATION, "op"),
                arguments("PREVIOUS_REVISION", Tags.PREVIOUS_REVISION, "prev"),
                arguments("REMOVAL_REASON", Tags.REMOVAL_REASON, "reason"),
                arguments("CHANNEL_NAME", Tags.CHANNEL_NAME, "name"),
                arguments("VISIBILITY", Tags.VISIBILITY, "visibility"),
                arguments("UNLISTED", Tags.UNLISTED, "unlisted"),
                arguments("TTL", Tags.TTL, "ttl"),
                arguments("MEMBER", Tags.MEMBER, "p"),
                arguments("ROLE", Tags.ROLE, "role"),
                arguments("REDACTED_EVENT", Tags.REDACTED_EVENT, "e"),
                arguments("PRIVATE_CHANNEL", Tags.PRIVATE_CHANNEL, "private"),
                arguments("CLOSED_CHANNEL", Tags.CLOSED_CHANNEL, "closed"),
                arguments("HIDDEN_CHANNEL", Tags.HIDDEN_CHANNEL, "hidden"),
                arguments("RESTRICTED_CHANNEL", Tags.RESTRICTED_CHANNEL, "restricted"),
                arguments("ABOUT", Tags.ABOUT, "about"),
                arguments("PICTURE", Tags.PICTURE, "picture"),
                arguments("ADDRESS", Tags.ADDRESS, "a"),
                arguments("URL", Tags.URL, "u"),
                arguments("METHOD", Tags.METHOD, "method"),
                arguments("PAYLOAD_HASH", Tags.PAYLOAD_HASH, "payload"),
                arguments("NONCE", Tags.NONCE, "nonce"),
                arguments("RELAY_URL", Tags.RELAY_URL, "relay"),
                arguments("CHALLENGE", Tags.CHALLENGE, "challenge"),
                arguments("FILTER_PREFIX", Tags.FILTER_PREFIX, "#"),
                arguments("FILTER_CHANNEL", Tags.FILTER_CHANNEL, "#h"),
                arguments("FILTER_ARTIFACT_ID", Tags.FILTER_ARTIFACT_ID, "#d"),
                arguments("FILTER_CHANNEL_ID", Tags.FILTER_CHANNEL_ID, "#d"),
                arguments("FILTER_ADDRESS", Tags.FILTER_ADDRESS, "#a"));
    }

    @ParameterizedTest(name = "{0} is \"{2}\" on the wire")
    @MethodSource("wireNames")
    void aTagKeepsItsWireName(String constant, String value, String wire) {
        assertThat(value).as(constant).isEqualTo(wire);
    }

    @Test
    void everyTagIsPinnedAbove() {
        String[] constants = Arrays.stream(Tags.class.getDeclaredFields())
                .filter(field -> Modifier.isPublic(field.getModifiers()))
                .map(Field::getName)
                .toArray(String[]::new);
        assertThat(wireNames().map(row -> (String) row.get()[0])).containsExactlyInAnyOrder(constants);
    }
}
