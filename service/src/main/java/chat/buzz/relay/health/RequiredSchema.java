package chat.buzz.relay.health;

import chat.buzz.relay.incremental.IncrementalSchema;
import java.util.LinkedHashSet;
import java.util.Set;
import liquibase.change.Change;
import liquibase.change.core.TagDatabaseChange;
import liquibase.changelog.ChangeLogParameters;
import liquibase.changelog.ChangeSet;
import liquibase.changelog.DatabaseChangeLog;
import liquibase.exception.LiquibaseException;
import liquibase.parser.ChangeLogParserFactory;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.resource.ResourceAccessor;

/**
 * The changesets this build cannot serve without: those before the before-incremental tag. The tagging
 * changeset and everything after it are left out: Liquibase's rollback to the tag removes the tag's own
 * ledger row along with the later ones while every instance keeps serving with the gate off, and a fleet
 * that drops out of the load balancer during a rollback would turn it into an outage.
 */
public final class RequiredSchema {
    private RequiredSchema() {}

    /** @return "id::author" of each required changeset, in changelog order */
    public static Set<String> of(String changelog) {
        try {
            ResourceAccessor resources = new ClassLoaderResourceAccessor(RequiredSchema.class.getClassLoader());
            DatabaseChangeLog log = ChangeLogParserFactory.getInstance()
                    .getParser(changelog, resources)
                    .parse(changelog, new ChangeLogParameters(), resources);
            Set<String> required = new LinkedHashSet<>();
            for (ChangeSet changeSet : log.getChangeSets()) {
                if (tagsBeforeIncremental(changeSet)) {
                    break;
                }
                required.add(key(changeSet.getId(), changeSet.getAuthor()));
            }
            return required;
        } catch (LiquibaseException e) {
            throw new IllegalStateException("cannot read the changelog " + changelog, e);
        }
    }

    static String key(String id, String author) {
        return id + "::" + author;
    }

    private static boolean tagsBeforeIncremental(ChangeSet changeSet) {
        for (Change change : changeSet.getChanges()) {
            if (change instanceof TagDatabaseChange tag && IncrementalSchema.ROLLBACK_TAG.equals(tag.getTag())) {
                return true;
            }
        }
        return false;
    }
}
