/**
 * Wake-ups: how a poller learns that new tasks are due before its poll interval runs out.
 */
package dev.errand.internal.wakeup;
