/**
 * Distributed processes: a large job split into batches that run in turns on the whole cluster, with an analysis
 * after each turn that finishes the process or gives the next turn its batches, and failed batches tried again in
 * later turns ({@link dev.errand.process.ProcessDefinition}, {@link dev.errand.process.ProcessRequest},
 * {@link dev.errand.process.ProcessAdmin}). See docs/PROCESSES.md.
 */
package dev.errand.process;
