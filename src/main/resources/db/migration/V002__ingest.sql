-- Block ingestion (issue 4). Lessons of rollytics' final schema (initia-labs/rollytics): a global sequence per tx stream
-- is the pagination key, one edge table per filter dimension, dictionary ids for accounts and message types, bytea
-- for addresses and hashes. Totals are counters kept in the ingest transaction, so list totals never COUNT a big
-- table. The API JSON of blocks, txs and EVM txs is rendered once at ingest and stored as UTF-8 bytes (`json`), so a
-- read is a concatenation; `convert_from(json, 'UTF8')::jsonb` gives it back as JSON in SQL.

-- Dictionaries, shared by every pipeline (EVM tracer, NFTs, rich list). Ids never change once committed.
CREATE TABLE account (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  address bytea NOT NULL UNIQUE            -- 20 or 32 bytes
);
CREATE TABLE msg_type (
  id   int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE                 -- type URL without the leading slash, e.g. cosmos.bank.v1beta1.MsgSend
);

CREATE TABLE block (
  height            bigint PRIMARY KEY,
  hash              bytea NOT NULL,
  time              timestamptz NOT NULL,   -- microsecond precision (PostgreSQL)
  time_ns           bigint NOT NULL,        -- exact block time, nanoseconds since the epoch
  block_time_ms     bigint NOT NULL,        -- since the previous block; 0 for the first indexed block
  proposer_address  bytea NOT NULL,         -- consensus address of the header
  proposer_moniker  text NOT NULL,
  proposer_operator text NOT NULL,
  gas_used          bigint NOT NULL,
  gas_wanted        bigint NOT NULL,
  tx_count          int NOT NULL,
  evm_tx_count      int NOT NULL,
  total_fee         jsonb NOT NULL,         -- [{"denom","amount"}] sorted by denom
  json              bytea NOT NULL          -- the block record of the API
);

-- Cosmos txs. sequence = 1..N in chain order (height, then index in the block), gapless.
CREATE TABLE tx (
  sequence  bigint PRIMARY KEY,
  height    bigint NOT NULL,
  tx_index  int NOT NULL,
  hash      bytea NOT NULL,                 -- 32 bytes (SHA-256 of the raw tx)
  code      int NOT NULL,
  signer_id bigint,                         -- account id of the first signer
  json      bytea NOT NULL                  -- the tx record of the API
);
-- rows below ~8 KB (a typical tx is ~4.5 KB) stay in the heap as they are: no pglz compression and no TOAST table
-- insert per tx (the default 2 KB target would do both), which makes writes and page reads cheaper for about twice the
-- disk a compressed JSON would take; larger txs are still compressed and moved out of line
ALTER TABLE tx SET (toast_tuple_target = 8160);
CREATE INDEX tx_hash_idx ON tx (hash);
CREATE INDEX tx_height_idx ON tx (height, sequence);

-- tx <-> involved account; signer = the account signed the tx.
CREATE TABLE tx_account (
  account_id bigint NOT NULL,
  sequence   bigint NOT NULL,
  signer     boolean NOT NULL,
  PRIMARY KEY (account_id, sequence)
);
CREATE INDEX tx_account_signer_idx ON tx_account (account_id, sequence) WHERE signer;

-- tx <-> message type (distinct types per tx).
CREATE TABLE tx_msg_type (
  msg_type_id int NOT NULL,
  sequence    bigint NOT NULL,
  PRIMARY KEY (msg_type_id, sequence)
);
CREATE INDEX tx_msg_type_sequence_idx ON tx_msg_type (sequence, msg_type_id);

-- The txs holding two or more distinct message types, so the total of a multi-type msgs filter is exact without
-- counting tx_msg_type: sum of the per-type counters minus the overlaps listed here.
CREATE TABLE tx_multi_msg (
  sequence     bigint PRIMARY KEY,
  msg_type_ids int[] NOT NULL
);

-- EVM receipts (EVM chains). Own gapless sequence.
CREATE TABLE evm_tx (
  sequence  bigint PRIMARY KEY,
  height    bigint NOT NULL,
  tx_index  int NOT NULL,
  hash      bytea NOT NULL,                 -- transactionHash, 32 bytes
  signer_id bigint,                         -- account id of `from`
  json      bytea NOT NULL                  -- the EVM tx record of the API (receipt subset)
);
ALTER TABLE evm_tx SET (toast_tuple_target = 8160);
CREATE INDEX evm_tx_hash_idx ON evm_tx (hash);
CREATE INDEX evm_tx_height_idx ON evm_tx (height, sequence);

CREATE TABLE evm_tx_account (
  account_id bigint NOT NULL,
  sequence   bigint NOT NULL,
  signer     boolean NOT NULL,
  PRIMARY KEY (account_id, sequence)
);
CREATE INDEX evm_tx_account_signer_idx ON evm_tx_account (account_id, sequence) WHERE signer;

-- Exact counters, updated in the ingest transaction of each block.
CREATE TABLE ingest_totals (
  id      smallint PRIMARY KEY CHECK (id = 1),
  blocks  bigint NOT NULL,
  txs     bigint NOT NULL,                  -- = last tx sequence
  evm_txs bigint NOT NULL                   -- = last evm_tx sequence
);
INSERT INTO ingest_totals (id, blocks, txs, evm_txs) VALUES (1, 0, 0, 0);

CREATE TABLE account_tx_stats (
  account_id     bigint PRIMARY KEY,
  txs            bigint NOT NULL,
  signer_txs     bigint NOT NULL,
  evm_txs        bigint NOT NULL,
  evm_signer_txs bigint NOT NULL
);

CREATE TABLE msg_type_stats (
  msg_type_id int PRIMARY KEY,
  txs         bigint NOT NULL
);

-- The ingest commit sends all its statements at once; this first one makes the transaction fail (SQLSTATE WI001)
-- unless the cursor and the totals are where the writer expects them, so a commit can never leave a gap, write a
-- height twice or reuse a sequence, even with a second writer or after a restart.
CREATE FUNCTION weft_ingest_expect(p_height bigint, p_txs bigint, p_evm_txs bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  c bigint;
  t bigint;
  e bigint;
BEGIN
  SELECT height INTO c FROM pipeline_cursor WHERE name = 'ingest' FOR UPDATE;
  SELECT txs, evm_txs INTO t, e FROM ingest_totals WHERE id = 1 FOR UPDATE;
  IF c IS DISTINCT FROM p_height OR t IS DISTINCT FROM p_txs OR e IS DISTINCT FROM p_evm_txs THEN
    RAISE EXCEPTION 'ingest position moved: cursor %, txs %, evm txs % (expected %, %, %)', c, t, e, p_height, p_txs, p_evm_txs
      USING ERRCODE = 'WI001';
  END IF;
END $$;
