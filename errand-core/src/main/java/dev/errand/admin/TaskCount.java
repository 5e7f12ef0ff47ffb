package dev.errand.admin;

/**
 * How many tasks match a filter ({@link TaskAdmin#count(TaskQuery, long)}): exact up to the limit the caller
 * gave, above it the database planner's estimate, which a page shows as "about".
 *
 * @param count the count, or the estimate
 * @param exact whether {@code count} was counted (true) or estimated (false)
 */
public record TaskCount(long count, boolean exact) {}
