package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.logging.common.ConsoleAppenderFactory;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.dropwizard.logging.json.EventJsonLayoutBaseFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The JSON log layout docs/operations.md offers log shippers is in the jar: the documented
 * {@code layout: {type: json}} is accepted and turns an operator's audit line into one JSON object.
 */
class JsonLogLayoutTest {
    @TempDir
    Path directory;

    @Test
    void theDocumentedJsonLayoutWritesAnAuditLineAsOneJsonObject() throws Exception {
        Path yaml = directory.resolve("logging.yml");
        Files.writeString(yaml, """
                level: INFO
                appenders:
                  - type: console
                    layout:
                      type: json
                """, StandardCharsets.UTF_8);
        ObjectMapper mapper = Jackson.newObjectMapper();
        DefaultLoggingFactory logging = new YamlConfigurationFactory<>(
                        DefaultLoggingFactory.class, Validators.newValidator(), mapper, "dw")
                .build(yaml.toFile());
        ConsoleAppenderFactory<?> console =
                (ConsoleAppenderFactory<?>) logging.getAppenders().get(0);
        assertThat(console.getLayout()).isInstanceOf(EventJsonLayoutBaseFactory.class);

        // The running context: a bare one has no MDC adapter for the layout to read.
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LayoutBase<ILoggingEvent> layout =
                ((EventJsonLayoutBaseFactory) console.getLayout()).build(context, TimeZone.getTimeZone("UTC"));
        layout.start();
        LoggingEvent line = new LoggingEvent(
                MigrationLedger.class.getName(),
                context.getLogger(MigrationLedger.AUDIT_LOGGER),
                Level.INFO,
                "Operator {} {} {}: {}",
                null,
                new Object[] {"olivia-oncall", "forget-instance", "relay-a:8080", "forgotten"});
        String written = layout.doLayout(line);

        assertThat(written.strip().lines()).hasSize(1);
        JsonNode json = mapper.readTree(written);
        assertThat(json.get("message").asText())
                .isEqualTo("Operator olivia-oncall forget-instance relay-a:8080: forgotten");
        assertThat(json.get("logger").asText()).isEqualTo(MigrationLedger.AUDIT_LOGGER);
        assertThat(json.get("level").asText()).isEqualTo("INFO");
    }
}
