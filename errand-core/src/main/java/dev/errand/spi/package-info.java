/**
 * What applications and hosts may plug into Errand: how tasks are claimed ({@link
 * dev.errand.spi.ClaimStrategy}), who runs transactions ({@link dev.errand.spi.TransactionRunner}), who
 * hears what happens ({@link dev.errand.spi.TaskListener}), how payloads become JSON ({@link
 * dev.errand.spi.PayloadCodec}) and which clock is read ({@link dev.errand.spi.DatabaseClock}).
 */
package dev.errand.spi;
