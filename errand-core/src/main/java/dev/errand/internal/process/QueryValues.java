package dev.errand.internal.process;

import dev.errand.spi.PayloadCodec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The values a creation on the cluster stores with its process: the query's parameters and the key of the last
 * row read. Each value is a {@code [type, text]} pair in a JSON array, so that a node reading it binds the same
 * Java type as the caller gave (a JSON number alone would not say whether it was an int, a long or a decimal).
 */
final class QueryValues {

    /** What the type names stand for. */
    private static final String TYPES = "null, String, Boolean, Integer, Long, Short, Byte, Double, Float,"
            + " BigDecimal, BigInteger, UUID, LocalDate, LocalDateTime, OffsetDateTime, java.sql.Date or"
            + " java.sql.Timestamp";

    private QueryValues() {}

    /**
     * Whether a value can be stored, for the message of a refused one.
     *
     * @return {@code null} if it can, else its type's name
     */
    static String unsupported(Object value) {
        return value == null || type(value) != null ? null : value.getClass().getName();
    }

    /** The types that can be stored, for messages. */
    static String supportedTypes() {
        return TYPES;
    }

    /**
     * Encodes values as a JSON array of pairs.
     *
     * @throws IllegalArgumentException naming the first value whose type cannot be stored
     */
    static String encode(List<?> values, PayloadCodec codec, String what) {
        List<List<String>> pairs = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            String type = value == null ? "null" : type(value);
            if (type == null) {
                throw new IllegalArgumentException(
                        what + " " + (i + 1) + " is a " + value.getClass().getName()
                                + ", which a creation on the cluster cannot store; pass one of " + TYPES);
            }
            pairs.add(java.util.Arrays.asList(type, value == null ? null : text(value)));
        }
        return codec.encode(pairs);
    }

    /** Decodes what {@link #encode} wrote. */
    static List<Object> decode(String json, PayloadCodec codec) {
        String[][] pairs = codec.decode(json, String[][].class);
        List<Object> values = new ArrayList<>(pairs.length);
        for (String[] pair : pairs) {
            values.add(value(pair[0], pair[1]));
        }
        return values;
    }

    private static String type(Object value) {
        if (value instanceof String) {
            return "string";
        } else if (value instanceof Boolean) {
            return "boolean";
        } else if (value instanceof Integer) {
            return "int";
        } else if (value instanceof Long) {
            return "long";
        } else if (value instanceof Short) {
            return "short";
        } else if (value instanceof Byte) {
            return "byte";
        } else if (value instanceof Double) {
            return "double";
        } else if (value instanceof Float) {
            return "float";
        } else if (value instanceof BigDecimal) {
            return "decimal";
        } else if (value instanceof BigInteger) {
            return "integer";
        } else if (value instanceof UUID) {
            return "uuid";
        } else if (value instanceof LocalDate) {
            return "date";
        } else if (value instanceof LocalDateTime) {
            return "datetime";
        } else if (value instanceof OffsetDateTime) {
            return "offsetdatetime";
        } else if (value instanceof Timestamp) {
            // Before java.sql.Date's check: both are java.util.Date.
            return "timestamp";
        } else if (value instanceof Date) {
            return "sqldate";
        }
        return null;
    }

    private static String text(Object value) {
        if (value instanceof Timestamp timestamp) {
            // The instant, not the JVM zone's wall-clock time: nodes in other zones bind the same instant.
            return timestamp.toInstant().toString();
        } else if (value instanceof BigDecimal decimal) {
            return decimal.toString();
        }
        return value.toString();
    }

    private static Object value(String type, String text) {
        return switch (type) {
            case "null" -> null;
            case "string" -> text;
            case "boolean" -> Boolean.valueOf(text);
            case "int" -> Integer.valueOf(text);
            case "long" -> Long.valueOf(text);
            case "short" -> Short.valueOf(text);
            case "byte" -> Byte.valueOf(text);
            case "double" -> Double.valueOf(text);
            case "float" -> Float.valueOf(text);
            case "decimal" -> new BigDecimal(text);
            case "integer" -> new BigInteger(text);
            case "uuid" -> UUID.fromString(text);
            case "date" -> LocalDate.parse(text);
            case "datetime" -> LocalDateTime.parse(text);
            case "offsetdatetime" -> OffsetDateTime.parse(text);
            case "timestamp" -> Timestamp.from(Instant.parse(text));
            case "sqldate" -> Date.valueOf(text);
            default -> throw new IllegalStateException("Unknown stored value type '" + type + "'");
        };
    }
}
