-- Narrower indexes (bench/ingest-read.sh prints each index's bytes per tx).
--
-- The event log's tx-hash index keys on the hash alone: the rows of one tx (one per account it involves, ~5) then
-- share one index entry, a posting list of their row pointers (B-tree deduplication, PostgreSQL 13+), where
-- (tx_hash, sequence) made each row an entry of its own: ~430 bytes per tx before, about a third after. A tx's events
-- are few, so a reader filtering by hash sorts them by sequence at no cost.
DO $$
BEGIN
  IF current_schema() = 'public' THEN
    DROP INDEX event_log_tx_hash_idx;
    CREATE INDEX event_log_tx_hash_idx ON event_log (tx_hash) WHERE tx_hash IS NOT NULL;
  END IF;
END
$$;

-- EVM logs are found by sequence, not height: a height range becomes the sequence range of its EVM txs (two probes of
-- evm_tx's (height, sequence) index; sequences follow heights), so the logs' own height index goes and the contract
-- and topic indexes lose their height column.
DROP INDEX evm_log_height_idx;
DROP INDEX evm_log_address_idx;
CREATE INDEX evm_log_address_idx ON evm_log (address, sequence, log_position);
DROP INDEX evm_log_topic0_idx;
CREATE INDEX evm_log_topic0_idx ON evm_log (topic0, sequence, log_position);
