-- Rows, not re-parsing: ingestion writes what the rich list needs in the same transaction as the block, so the rich
-- list reads rows instead of parsing the stored tx JSON again.

-- One movement of a fungible token, in chain order (height, then tx sequence, then its order in the tx). kind names the
-- source: 1 = an ERC-20 Transfer log (token = the 20-byte contract). Later sources write the same rows with their own
-- kind (e.g. a Move fungible_asset deposit/withdraw pair with its metadata object as token, a CW20 transfer with its
-- contract). The zero address is the missing side of a mint or a burn.
CREATE TABLE fungible_transfer (
  height         bigint NOT NULL,
  sequence       bigint NOT NULL,          -- the tx's sequence (tx.sequence)
  transfer_index int NOT NULL,             -- order among the tx's transfers
  kind           smallint NOT NULL,
  token          bytea NOT NULL,
  from_address   bytea NOT NULL,
  to_address     bytea NOT NULL,
  amount         numeric NOT NULL,
  PRIMARY KEY (height, sequence, transfer_index)
);

-- The bank denoms the indexed txs' coin events move, with the first height moving each: the rich list maps them to
-- their ERC-20 contract once.
CREATE TABLE coin_denom (
  denom        text PRIMARY KEY,
  first_height bigint NOT NULL
);

-- A database indexed before this migration: the heights the rich list has not applied yet (above its cursor) get their
-- rows from the stored tx JSON, once, here. Only where the rich list runs (an EVM chain: EVM txs indexed, or the rich
-- list already moved); elsewhere nothing reads these rows. Heights at or below the rich-list cursor are applied already
-- and get no rows (nothing reads them again).
CREATE FUNCTION weft_v007_jsonb(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN t::jsonb;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;

CREATE FUNCTION weft_v007_hex_numeric(h text) RETURNS numeric LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  r numeric := 0;
  d int;
BEGIN
  FOR i IN 1..length(h) LOOP
    d := position(lower(substr(h, i, 1)) IN '0123456789abcdef') - 1;
    IF d < 0 THEN RETURN NULL; END IF;
    r := r * 16 + d;
  END LOOP;
  RETURN r;
END $$;

CREATE TEMP TABLE v007_backfill ON COMMIT DROP AS
SELECT (SELECT height FROM pipeline_cursor WHERE name = 'richlist') AS above,
       (EXISTS (SELECT 1 FROM evm_tx) OR (SELECT height FROM pipeline_cursor WHERE name = 'richlist') > 0) AS evm;

INSERT INTO fungible_transfer (height, sequence, transfer_index, kind, token, from_address, to_address, amount)
SELECT height, sequence, (row_number() OVER (PARTITION BY sequence ORDER BY n, m) - 1)::int, 1,
       decode(substr(address, length(address) - 39), 'hex'), decode(substr(t1, length(t1) - 39), 'hex'),
       decode(substr(t2, length(t2) - 39), 'hex'), amount
FROM (
  SELECT t.height, t.sequence, e.n, a.m, l.j ->> 'address' AS address, l.j -> 'topics' ->> 1 AS t1, l.j -> 'topics' ->> 2 AS t2,
         weft_v007_hex_numeric(regexp_replace(l.j ->> 'data', '^0[xX]', '')) AS amount, l.j
  FROM v007_backfill b
  JOIN tx t ON t.height > b.above
  CROSS JOIN LATERAL jsonb_array_elements(convert_from(t.json, 'UTF8')::jsonb -> 'events') WITH ORDINALITY e(ev, n)
  CROSS JOIN LATERAL jsonb_array_elements(e.ev -> 'attributes') WITH ORDINALITY a(at, m)
  CROSS JOIN LATERAL (SELECT weft_v007_jsonb(a.at ->> 'value') AS j) l
  WHERE b.evm
    AND position(convert_to('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 'UTF8') IN t.json) > 0
    AND e.ev ->> 'type' = 'evm' AND a.at ->> 'key' = 'log'
    AND position('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' IN a.at ->> 'value') > 0
) logs
WHERE jsonb_typeof(j -> 'topics') = 'array' AND jsonb_array_length(j -> 'topics') = 3
  AND lower(j -> 'topics' ->> 0) = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  AND address ~ '^(0[xX])?[0-9a-fA-F]{40}$' AND t1 ~ '^(0[xX])?[0-9a-fA-F]{64}$' AND t2 ~ '^(0[xX])?[0-9a-fA-F]{64}$'
  AND length(regexp_replace(j ->> 'data', '^0[xX]', '')) BETWEEN 1 AND 64 AND amount IS NOT NULL AND amount <> 0;

INSERT INTO coin_denom (denom, first_height)
SELECT c[2], min(t.height)
FROM v007_backfill b
JOIN tx t ON t.height > b.above
CROSS JOIN LATERAL jsonb_array_elements(convert_from(t.json, 'UTF8')::jsonb -> 'events') e(ev)
CROSS JOIN LATERAL jsonb_array_elements(e.ev -> 'attributes') a(at)
CROSS JOIN LATERAL regexp_split_to_table(a.at ->> 'value', ',') p(piece)
CROSS JOIN LATERAL regexp_match(btrim(p.piece), '^(\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$') c
WHERE b.evm AND e.ev ->> 'type' IN ('coin_spent', 'coin_received', 'transfer', 'coinbase', 'burn', 'tx')
  AND a.at ->> 'key' IN ('amount', 'fee') AND c IS NOT NULL
GROUP BY c[2];

DROP FUNCTION weft_v007_jsonb(text);
DROP FUNCTION weft_v007_hex_numeric(text);
