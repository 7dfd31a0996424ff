-- EVM internal txs (issue 5): the callTracer frames of every EVM tx, flattened in pre-order DFS (as rollytics
-- orders them). One row per frame with a global gapless `sequence` (the pagination key) in chain order: height, then the tx's
-- place in the block's trace, then the frame index. The EVM tracer writes a height's rows, their account edges, the
-- counters and its `evm` cursor in one transaction, so a restart resumes exactly and totals never COUNT a big table.

CREATE TABLE evm_internal_tx (
  sequence      bigint PRIMARY KEY,
  height        bigint NOT NULL,
  hash          bytea NOT NULL,              -- the EVM tx hash, 32 bytes
  frame_index   int NOT NULL,                -- pre-order index in the tx's frame tree; the top frame is 0
  parent_index  int NOT NULL,                -- the direct parent's frame_index; -1 for the top frame
  type          text NOT NULL,               -- CALL, STATICCALL, DELEGATECALL, CREATE, CREATE2, SELFDESTRUCT… as traced
  from_id       bigint,                      -- account ids; null when the frame names no address
  to_id         bigint,
  input         bytea NOT NULL,
  output        bytea NOT NULL,              -- empty for the top frame (rollytics blanks it)
  value         bytea NOT NULL,              -- empty for STATICCALL and DELEGATECALL (which moves nothing)
  gas           bytea NOT NULL,
  gas_used      bytea NOT NULL,              -- the receipt's gasUsed for the top frame
  error         text,                        -- the frame's callTracer error, null when it did not fail
  revert_reason text,
  json          bytea NOT NULL               -- the API item, rendered once (UTF-8)
);
CREATE INDEX evm_internal_tx_hash_idx ON evm_internal_tx (hash, sequence);
CREATE INDEX evm_internal_tx_height_idx ON evm_internal_tx (height, sequence);

-- frame <-> involved account (from and to).
CREATE TABLE evm_internal_tx_account (
  account_id bigint NOT NULL,
  sequence   bigint NOT NULL,
  PRIMARY KEY (account_id, sequence)
);

-- Exact counters, updated in the tracer's transaction.
CREATE TABLE evm_internal_totals (
  id           smallint PRIMARY KEY CHECK (id = 1),
  internal_txs bigint NOT NULL              -- = last sequence
);
INSERT INTO evm_internal_totals (id, internal_txs) VALUES (1, 0);

CREATE TABLE account_internal_tx_stats (
  account_id   bigint PRIMARY KEY,
  internal_txs bigint NOT NULL
);

-- The heights the tracer has to visit (blocks with EVM txs), and /status's "is an EVM block above the tracer" test.
CREATE INDEX block_evm_height_idx ON block (height) WHERE evm_tx_count > 0;

-- The tracer commit sends all its statements at once; this first one makes the transaction fail (SQLSTATE WI001, as
-- the ingest check) unless the evm cursor and the internal tx total are where the writer expects them, so a commit can
-- never skip or repeat a height or reuse a sequence, even with a second writer or after a restart.
CREATE FUNCTION weft_evm_expect(p_height bigint, p_internal_txs bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  c bigint;
  t bigint;
BEGIN
  SELECT height INTO c FROM pipeline_cursor WHERE name = 'evm' FOR UPDATE;
  SELECT internal_txs INTO t FROM evm_internal_totals WHERE id = 1 FOR UPDATE;
  IF c IS DISTINCT FROM p_height OR t IS DISTINCT FROM p_internal_txs THEN
    RAISE EXCEPTION 'evm position moved: cursor %, internal txs % (expected %, %)', c, t, p_height, p_internal_txs
      USING ERRCODE = 'WI001';
  END IF;
END $$;
