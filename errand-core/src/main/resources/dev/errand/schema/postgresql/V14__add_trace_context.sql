-- The W3C trace context (traceparent, tracestate) of the code that enqueued a task, so that its attempts' spans
-- join the enqueuing trace. NULL when no trace was active or tracing is not configured (the default).
ALTER TABLE ${prefix}task ADD COLUMN trace_parent VARCHAR(55);
ALTER TABLE ${prefix}task ADD COLUMN trace_state VARCHAR(512);
-- A batch's callbacks carry the trace context of the code that created the batch.
ALTER TABLE ${prefix}batch_callback ADD COLUMN trace_parent VARCHAR(55);
ALTER TABLE ${prefix}batch_callback ADD COLUMN trace_state VARCHAR(512);
