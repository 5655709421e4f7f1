package chat.buzz.relay.database;

import java.util.Optional;
import java.util.function.Function;
import org.jdbi.v3.core.config.ConfigRegistry;
import org.jdbi.v3.core.extension.ExtensionMethod;
import org.jdbi.v3.core.statement.DefinedAttributeTemplateEngine;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.TemplateEngine;

/**
 * Jdbi's template engine as Dropwizard configures it, but parsed once per statement text.
 *
 * <p>Dropwizard wraps Jdbi's engine to name each SqlObject statement in a leading comment, so that
 * {@code pg_stat_activity} and the slow-query log say which method ran. Its wrapper only renders, and
 * Jdbi caches a template only when the engine can parse it: every statement was lexed again on every
 * execution, about 7 % of the relay's CPU on a trivial signed read (JFR, docs/benchmarks.md). This
 * engine parses through Jdbi's {@link DefinedAttributeTemplateEngine}, which Jdbi then caches per
 * statement text, and prepends the same comment when the statement is rendered.
 */
public final class NamedStatementTemplates implements TemplateEngine.Parsing {
    private final DefinedAttributeTemplateEngine defined = new DefinedAttributeTemplateEngine();

    @Override
    public Optional<Function<StatementContext, String>> parse(String template, ConfigRegistry config) {
        return defined.parse(template, config).map(render -> context -> named(context, render.apply(context)));
    }

    private static String named(StatementContext context, String sql) {
        ExtensionMethod method = context.getExtensionMethod();
        if (method == null) {
            return sql;
        }
        return "/* " + method.getType().getSimpleName() + "."
                + method.getMethod().getName() + " */ " + sql;
    }
}
