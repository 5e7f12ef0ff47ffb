package dev.errand.process;

import dev.errand.config.Names;

/**
 * The name of a process and the type of the items its batches hold. A batch's items are stored as a JSON array
 * of this type, never with Java serialization.
 *
 * @param <T> the item type
 */
public final class ProcessKind<T> {

    /** Longest process name the schema stores. */
    public static final int MAX_NAME_LENGTH = 100;

    private final String name;
    private final Class<T> itemType;

    private ProcessKind(String name, Class<T> itemType) {
        this.name = Names.require("Process name", name, MAX_NAME_LENGTH);
        if (itemType == null) {
            throw new IllegalArgumentException("itemType of process '" + name + "' must not be null: pass the class"
                    + " of one item of a batch, a record or a type Jackson can read and write");
        }
        this.itemType = itemType;
    }

    /**
     * A process whose batches hold items of {@code itemType}.
     *
     * @throws IllegalArgumentException if the name is null, blank, padded, longer than 100 characters or holds a
     *     control character, or the type is null
     */
    public static <T> ProcessKind<T> of(String name, Class<T> itemType) {
        return new ProcessKind<>(name, itemType);
    }

    /** The name stored in the {@code name} column of the process table. */
    public String name() {
        return name;
    }

    /** The type of one item of a batch. */
    public Class<T> itemType() {
        return itemType;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ProcessKind<?> kind && kind.name.equals(name) && kind.itemType.equals(itemType);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "ProcessKind[" + name + ", " + itemType.getSimpleName() + "]";
    }
}
