/**
 * Settings: the table of every setting with its default and range, and the validated settings of one
 * node.
 */
package dev.errand.config;
