package chat.buzz.relay.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps a presented bearer token to an operator name, in time independent of how much of it matched. */
public final class OperatorTokens {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorTokens.class);
    public static final String ENVIRONMENT_VARIABLE = "BUZZ_ADMIN_TOKEN";
    public static final String ENVIRONMENT_OPERATOR = "admin";
    public static final String METRICS_VARIABLE = "BUZZ_ADMIN_METRICS_TOKEN";
    /** The token BUZZ_ADMIN_TOKEN had before a rotation: it still opens the admin port, as "admin". */
    public static final String PREVIOUS_VARIABLE = "BUZZ_ADMIN_TOKEN_PREVIOUS";

    // Entries are never compared as records: matching goes through MessageDigest.isEqual, in constant time.
    @SuppressWarnings("ArrayRecordComponent")
    private record Entry(String operator, byte[] digest) {}

    private final List<Entry> entries;
    /** The read-only scrape token's digest; null when none is configured. */
    private final byte[] metricsDigest;

    private OperatorTokens(List<Entry> entries, byte[] metricsDigest) {
        this.entries = List.copyOf(entries);
        this.metricsDigest = metricsDigest == null ? null : metricsDigest.clone();
    }

    public static OperatorTokens of(List<OperatorConfig> operators) {
        return of(operators, null);
    }

    /** Operators, plus a token that may only scrape metrics (null for none). */
    public static OperatorTokens of(List<OperatorConfig> operators, String metricsToken) {
        List<Entry> entries = new ArrayList<>();
        for (OperatorConfig operator : operators) {
            entries.add(new Entry(operator.getName(), digest(operator.getToken())));
        }
        return new OperatorTokens(entries, metricsToken == null ? null : digest(metricsToken));
    }

    /**
     * Configured operators, plus BUZZ_ADMIN_TOKEN (and BUZZ_ADMIN_TOKEN_PREVIOUS) as "admin", plus a
     * generated token in local mode; and
     * the metrics token from {@code admin.metricsToken} or BUZZ_ADMIN_METRICS_TOKEN (the variable wins).
     *
     * @throws IllegalStateException when BUZZ_ADMIN_TOKEN or BUZZ_ADMIN_METRICS_TOKEN is shorter than
     *         configured tokens may be
     */
    public static OperatorTokens load(AdminConfig config, Map<String, String> environment) {
        List<OperatorConfig> operators = new ArrayList<>(config.getOperators());
        fromEnvironment(environment, ENVIRONMENT_VARIABLE)
                .ifPresent(token -> operators.add(new OperatorConfig(ENVIRONMENT_OPERATOR, token)));
        // Both tokens open the port while a rotation rolls through the fleet (docs/security.md), so no
        // instance, restarted or not, refuses the tooling in between.
        fromEnvironment(environment, PREVIOUS_VARIABLE)
                .ifPresent(token -> operators.add(new OperatorConfig(ENVIRONMENT_OPERATOR, token)));
        String metricsToken = fromEnvironment(environment, METRICS_VARIABLE).orElse(config.getMetricsToken());
        if (operators.isEmpty() && config.isGenerateTokenWhenMissing()) {
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            String token = HexFormat.of().formatHex(random);
            operators.add(new OperatorConfig(ENVIRONMENT_OPERATOR, token));
            LOG.warn("No admin token configured; generated one for this run (operator \"admin\"): {}", token);
        }
        if (operators.isEmpty()) {
            LOG.error(
                    "No admin token configured (admin.operators or {}); every admin request will be refused",
                    ENVIRONMENT_VARIABLE);
        }
        return of(operators, metricsToken);
    }

    /** The same minimum as admin.operators, whose tokens configuration validation checks. */
    private static Optional<String> fromEnvironment(Map<String, String> environment, String variable) {
        String value = environment.get(variable);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String token = value.strip();
        if (token.length() < OperatorConfig.MIN_TOKEN_LENGTH) {
            throw new IllegalStateException(variable + " must be at least " + OperatorConfig.MIN_TOKEN_LENGTH
                    + " characters (it has " + token.length() + ")");
        }
        return Optional.of(token);
    }

    /**
     * Compares digests so every comparison has the same length, and checks every entry so the time
     * taken does not reveal which operator (if any) nearly matched.
     */
    public Optional<String> operatorFor(String presentedToken) {
        byte[] presented = digest(presentedToken);
        String match = null;
        for (Entry entry : entries) {
            if (MessageDigest.isEqual(entry.digest(), presented) && match == null) {
                match = entry.operator();
            }
        }
        return Optional.ofNullable(match);
    }

    /** Whether the token is the read-only metrics token; compared as a digest, like operator tokens. */
    public boolean isMetricsToken(String presentedToken) {
        return metricsDigest != null && MessageDigest.isEqual(metricsDigest, digest(presentedToken));
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
