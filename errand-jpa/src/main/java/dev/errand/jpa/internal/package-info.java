/**
 * The engine of entity queues: reading the mapping, the SQL per dialect, claiming, processing, settling
 * failures, rescue, wake-ups and the index check. Not API: it may change in any release.
 */
package dev.errand.jpa.internal;
