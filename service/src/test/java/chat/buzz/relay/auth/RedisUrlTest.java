package chat.buzz.relay.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedisUrlTest {
    @Test
    void theFormsOperatorsWriteAreRead() {
        assertThat(RedisUrl.parse("redis://127.0.0.1:6379/0"))
                .isEqualTo(new RedisUrl(false, "127.0.0.1", 6379, 0, null, null));
        assertThat(RedisUrl.parse("redis://cache.internal"))
                .isEqualTo(new RedisUrl(false, "cache.internal", 6379, 0, null, null));
        assertThat(RedisUrl.parse("rediss://relay:s%40cret@cache.internal:6380/3"))
                .isEqualTo(new RedisUrl(true, "cache.internal", 6380, 3, "relay", "s@cret"));
        assertThat(RedisUrl.parse("redis://:only-a-password@[::1]:6379/1"))
                .isEqualTo(new RedisUrl(false, "::1", 6379, 1, null, "only-a-password"));
    }

    @Test
    void whatIsLoggedNeverHoldsThePassword() {
        RedisUrl url = RedisUrl.parse("rediss://relay:hunter2-secret@cache.internal:6380/3");
        assertThat(url.describe()).isEqualTo("rediss://cache.internal:6380/3");
        assertThat(url.toString()).doesNotContain("hunter2");
    }

    @Test
    void eachMistakeIsNamed() {
        assertThat(RedisUrl.problem("")).contains("it is empty");
        assertThat(RedisUrl.problem("127.0.0.1:6379")).contains("it must start with redis:// or rediss://");
        assertThat(RedisUrl.problem("http://127.0.0.1:6379")).contains("it must start with redis:// or rediss://");
        assertThat(RedisUrl.problem("redis://127.0.0.1:port/0"))
                .contains("it names no host, or its port is not a number");
        assertThat(RedisUrl.problem("redis:///0")).contains("it names no host, or its port is not a number");
        assertThat(RedisUrl.problem("redis://127.0.0.1:70000/0")).contains("its port must be 1 to 65535");
        assertThat(RedisUrl.problem("redis://127.0.0.1:6379/zero"))
                .contains("its path must be the database number (/0, /1, ...)");
        assertThat(RedisUrl.problem("redis://127.0.0.1:6379/0?timeout=1")).contains("it takes no query or fragment");
        assertThat(RedisUrl.problem("redis://justapassword@127.0.0.1/0"))
                .contains("its credentials must be user:password, or :password for the default user");
        assertThat(RedisUrl.problem("redis://a b")).contains("it is not a URL");
        assertThat(RedisUrl.problem("redis://127.0.0.1:6379/0")).isEmpty();
    }
}
