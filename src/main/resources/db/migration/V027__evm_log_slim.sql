-- EVM logs keep their index columns only: the log's JSON is read back from its receipt (evm_tx.json, compressed in
-- row since V018), where every log already is. The copy cost ~750 bytes per log (as much as the rest of the row and
-- its three indexes) and doubled what a receipt's logs take on disk.
ALTER TABLE evm_log DROP COLUMN json;
