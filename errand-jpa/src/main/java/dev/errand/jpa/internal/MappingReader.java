package dev.errand.jpa.internal;

import dev.errand.jpa.internal.QueueTable.StateColumns;
import dev.errand.jpa.state.QueueState;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.metamodel.mapping.AttributeMapping;
import org.hibernate.metamodel.mapping.BasicEntityIdentifierMapping;
import org.hibernate.metamodel.mapping.EmbeddableValuedModelPart;
import org.hibernate.metamodel.mapping.EntityVersionMapping;
import org.hibernate.metamodel.mapping.SelectableMapping;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Reads from Hibernate's mapping where an entity's queue state is stored, and refuses mappings that a
 * claim by plain SQL cannot serve, with a message that says what to change.
 */
public final class MappingReader {

    private final SessionFactoryImplementor factory;

    /**
     * Creates a reader.
     *
     * @throws IllegalArgumentException if the factory is not Hibernate's
     */
    public MappingReader(EntityManagerFactory entityManagerFactory) {
        this.factory = unwrap(entityManagerFactory);
    }

    /** Hibernate's session factory behind a JPA factory. */
    public static SessionFactoryImplementor unwrap(EntityManagerFactory entityManagerFactory) {
        try {
            return entityManagerFactory.unwrap(SessionFactoryImplementor.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "Entity queues need Hibernate as the JPA provider; the" + " EntityManagerFactory "
                            + entityManagerFactory.getClass().getName() + " is not Hibernate's",
                    e);
        }
    }

    /** The database dialect. */
    public SqlDialect dialect() {
        return SqlDialect.of(factory.getJdbcServices().getDialect());
    }

    /**
     * The persister of an entity class, checked to be a root entity.
     *
     * @throws IllegalArgumentException if it is not a mapped entity or not the root of its hierarchy
     */
    public EntityPersister persister(Class<?> entityType) {
        EntityPersister persister = factory.getMappingMetamodel().findEntityDescriptor(entityType);
        if (persister == null) {
            throw new IllegalArgumentException(entityType.getName() + " is not an entity of this"
                    + " EntityManagerFactory; annotate it with @Entity and list it in the persistence unit");
        }
        if (persister.getRootEntityDescriptor() != persister) {
            throw new IllegalArgumentException(entityType.getName() + " is a subclass of the entity "
                    + persister.getRootEntityDescriptor().getEntityName() + "; declare the queue on that root entity"
                    + " (its items include every subclass)");
        }
        return persister;
    }

    /**
     * The state attribute of an entity, checked to be an embedded {@link QueueState}.
     *
     * @throws IllegalArgumentException if there is no such attribute, or it is no queue state
     */
    public AttributeMapping stateAttribute(EntityPersister persister, String attribute) {
        AttributeMapping mapping = persister.findAttributeMapping(attribute);
        if (!(mapping instanceof EmbeddableValuedModelPart embedded)
                || !QueueState.class.isAssignableFrom(embedded.getJavaType().getJavaTypeClass())) {
            throw new IllegalArgumentException(persister.getEntityName() + " has no embedded QueueState attribute '"
                    + attribute + "'; name the field that holds the queue state, declared as"
                    + " @Embedded QueueState " + attribute + " = QueueState.pending()");
        }
        return mapping;
    }

    /**
     * Reads where a queue state of an entity is stored.
     *
     * @throws IllegalArgumentException if the mapping cannot be served: a composite id, a state attribute
     *     that is missing or of another type, or state columns in another table than the id
     */
    public QueueTable read(Class<?> entityType, String attribute) {
        EntityPersister persister = persister(entityType);
        String name = persister.getEntityName();
        if (!(persister.getIdentifierMapping() instanceof BasicEntityIdentifierMapping id)) {
            throw new IllegalArgumentException(name + " has a composite id; entity queues need a single-column id");
        }
        String table = id.getContainingTableExpression();
        EmbeddableValuedModelPart state = (EmbeddableValuedModelPart) stateAttribute(persister, attribute);
        StateColumns stateColumns = new StateColumns(
                column(state, "status", table),
                column(state, "nextAttemptAt", table),
                column(state, "attempts", table),
                column(state, "lastAttemptAt", table),
                column(state, "lastError", table),
                column(state, "leaseOwner", table),
                column(state, "leaseToken", table),
                column(state, "leaseExpiresAt", table));
        return new QueueTable(
                name,
                table,
                id.getSelectionExpression(),
                id.getJavaType().getJavaTypeClass(),
                versionColumn(persister, table),
                stateColumns);
    }

    private static String column(EmbeddableValuedModelPart state, String field, String table) {
        AttributeMapping attribute = state.getEmbeddableTypeDescriptor().findAttributeMapping(field);
        if (!(attribute instanceof SelectableMapping column)) {
            throw new IllegalStateException("QueueState." + field + " is not mapped to a column");
        }
        if (column.isFormula() || !table.equals(column.getContainingTableExpression())) {
            throw new IllegalArgumentException("The queue state column " + column.getSelectionExpression()
                    + " is stored in " + column.getContainingTableExpression() + ", not in the id's table " + table
                    + "; keep the QueueState in the entity's main table");
        }
        return column.getSelectionExpression();
    }

    private static String versionColumn(EntityPersister persister, String table) {
        EntityVersionMapping version = persister.getVersionMapping();
        if (version == null || !table.equals(version.getContainingTableExpression())) {
            return null;
        }
        Class<?> type = version.getJavaType().getJavaTypeClass();
        boolean numeric = type == int.class
                || type == long.class
                || type == short.class
                || type == Integer.class
                || type == Long.class
                || type == Short.class;
        return numeric ? version.getSelectionExpression() : null;
    }
}
