-- Flow control, continued (issue 31): a slot may hold a chain of tasks that one claim took for it, which the node
-- runs one after another. task_id is the chain's first task; chain_ids lists the others, comma-separated, in the
-- order they run. A slot is held while any task of its chain is running with the slot's lease_token.
-- See docs/FLOW-CONTROL.md. Depends on V17.
ALTER TABLE ${prefix}flow_slot ADD COLUMN chain_ids VARCHAR(1500);
ALTER TABLE ${prefix}flow_key_slot ADD COLUMN chain_ids VARCHAR(1500);
