-- Account views (issue 57): time ranges on lists, per-category counts, EVM logs, the stats overview, NFT activity.

-- from_time/to_time on the lists: a time bound is a height bound found with one probe of this index (block times
-- never decrease, so time order is height order).
CREATE INDEX block_time_idx ON block (time_ns, height);

-- Per-category counts and the category filter of txs/by_account (categories: model/ingest/TxCategory, from the
-- message type URLs). The ingest commit writes one edge per (account, category, tx) and bumps the counter with it, so
-- the summary's counts and the filtered list's total are counters. A database indexed before this migration gets
-- both from its stored rows here, once (tx_msg_type and tx_account already hold what the ingest reads).
CREATE TABLE tx_account_category (
  account_id bigint NOT NULL,
  category   smallint NOT NULL,
  sequence   bigint NOT NULL,
  PRIMARY KEY (account_id, category, sequence)
);
CREATE TABLE account_category_stats (
  account_id bigint NOT NULL,
  category   smallint NOT NULL,
  txs        bigint NOT NULL,
  PRIMARY KEY (account_id, category)
);
INSERT INTO tx_account_category (account_id, category, sequence)
SELECT DISTINCT a.account_id, c.category, a.sequence
FROM tx_msg_type m
JOIN msg_type mt ON mt.id = m.msg_type_id
CROSS JOIN LATERAL (SELECT CASE
    WHEN mt.name LIKE 'ibc.%' THEN 2
    WHEN mt.name LIKE 'opinit.%' THEN 3
    WHEN mt.name IN ('cosmos.bank.v1beta1.MsgSend', 'cosmos.bank.v1beta1.MsgMultiSend') THEN 1
    WHEN mt.name = 'minievm.evm.v1.MsgCall' THEN 4
    WHEN mt.name IN ('initia.move.v1.MsgExecute', 'initia.move.v1.MsgExecuteJSON') THEN 5
    WHEN mt.name = 'cosmwasm.wasm.v1.MsgExecuteContract' THEN 6
  END::smallint AS category) c
JOIN tx_account a ON a.sequence = m.sequence
WHERE c.category IS NOT NULL;
INSERT INTO account_category_stats (account_id, category, txs)
SELECT account_id, category, count(*) FROM tx_account_category GROUP BY account_id, category;

-- EVM logs (/indexer/evm/v1/logs): one row per log of every stored receipt, written in the ingest commit with its
-- EVM tx; (sequence, log_position) is the keyset order (sequences follow heights; position = place in the receipt).
-- A query walks the index of its most selective filter (address, else topic0, else height) within a bounded range.
CREATE TABLE evm_log (
  height       bigint NOT NULL,
  sequence     bigint NOT NULL,              -- the EVM tx's (evm_tx.sequence)
  log_position int NOT NULL,
  address      bytea NOT NULL,               -- 20 bytes
  topic0       bytea,                        -- 32 bytes each, null past the log's topics
  topic1       bytea,
  topic2       bytea,
  topic3       bytea,
  json         bytea NOT NULL,               -- the log object as the receipt holds it (UTF-8)
  PRIMARY KEY (sequence, log_position)
);
CREATE INDEX evm_log_height_idx ON evm_log (height, sequence, log_position);
CREATE INDEX evm_log_address_idx ON evm_log (address, height, sequence, log_position);
CREATE INDEX evm_log_topic0_idx ON evm_log (topic0, height, sequence, log_position);
INSERT INTO evm_log (height, sequence, log_position, address, topic0, topic1, topic2, topic3, json)
SELECT e.height, e.sequence, (l.n - 1)::int, decode(substr(l.j ->> 'address', 3), 'hex'),
       decode(substr(l.j -> 'topics' ->> 0, 3), 'hex'), decode(substr(l.j -> 'topics' ->> 1, 3), 'hex'),
       decode(substr(l.j -> 'topics' ->> 2, 3), 'hex'), decode(substr(l.j -> 'topics' ->> 3, 3), 'hex'),
       convert_to(l.j::text, 'UTF8')
FROM evm_tx e
CROSS JOIN LATERAL jsonb_array_elements(convert_from(e.json, 'UTF8')::jsonb -> 'logs') WITH ORDINALITY l(j, n)
WHERE (l.j ->> 'address') ~ '^0[xX][0-9a-fA-F]{40}$'
  AND jsonb_typeof(l.j -> 'topics') = 'array' AND jsonb_array_length(l.j -> 'topics') <= 4
  AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(l.j -> 'topics') t(v) WHERE v !~ '^0[xX][0-9a-fA-F]{64}$');

-- The stats overview (/indexer/stats/v1/overview): per-day (UTC, by block time) tx counts and exact active accounts
-- (the accounts involved in a day's txs: one (day, account) row, inserted once; the day's counter grows only by the
-- rows actually inserted), and the number of accounts with an indexed tx, all kept in the ingest commit.
CREATE TABLE daily_active_account (
  day        date NOT NULL,
  account_id bigint NOT NULL,
  PRIMARY KEY (day, account_id)
);
CREATE TABLE daily_stats (
  day             date PRIMARY KEY,
  txs             bigint NOT NULL,
  active_accounts bigint NOT NULL
);
CREATE TABLE view_totals (
  id       smallint PRIMARY KEY CHECK (id = 1),
  accounts bigint NOT NULL                   -- = rows of account_tx_stats
);
INSERT INTO view_totals (id, accounts) SELECT 1, count(*) FROM account_tx_stats;
INSERT INTO daily_active_account (day, account_id)
SELECT DISTINCT (b.time AT TIME ZONE 'UTC')::date, a.account_id
FROM tx_account a JOIN tx t ON t.sequence = a.sequence JOIN block b ON b.height = t.height;
INSERT INTO daily_stats (day, txs, active_accounts)
SELECT x.day, x.txs, (SELECT count(*) FROM daily_active_account d WHERE d.day = x.day)
FROM (SELECT (b.time AT TIME ZONE 'UTC')::date AS day, count(*) AS txs
      FROM tx t JOIN block b ON b.height = t.height GROUP BY 1) x;
