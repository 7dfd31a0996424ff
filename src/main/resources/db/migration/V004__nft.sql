-- NFT collections, tokens and their tx history (issue 6), written by the ingest commit of each run of blocks.
-- Addresses are bytea: 20 bytes (EVM contracts, accounts) or 32 bytes (Move objects, Wasm contracts). Times are
-- block times in nanoseconds since the epoch (rendered RFC 3339 UTC with microseconds, as rollytics reads them back
-- from a timestamptz).

CREATE TABLE nft_collection (
  addr        bytea PRIMARY KEY,
  name        text NOT NULL,
  origin_name text NOT NULL DEFAULT '',
  -- lower-case letters and digits of name, '|', the same of origin_name: /collections/by_name substring-matches it
  search      text NOT NULL,
  creator     bytea,                      -- null when unknown (rendered "")
  height      bigint NOT NULL,            -- Move/Wasm: created; EVM: first indexed tx touching the contract
  time_ns     bigint NOT NULL,
  nft_count   bigint NOT NULL DEFAULT 0   -- live (unburnt) tokens, kept exact by the statements that add and delete them
);
CREATE INDEX nft_collection_height_idx ON nft_collection (height, addr);

-- Live tokens; burnt ones are deleted (their tx history stays in tx_nft).
CREATE TABLE nft (
  collection  bytea NOT NULL,
  token_id    text COLLATE "C" NOT NULL,  -- compared byte-wise, so "9" > "10" (lexicographic, as rollytics)
  object_addr bytea,                      -- Move: the NFT object; null elsewhere
  owner       bytea NOT NULL,
  uri         text NOT NULL,
  height      bigint NOT NULL,            -- last mint, transfer or URI change
  time_ns     bigint NOT NULL,
  PRIMARY KEY (collection, token_id)
);
CREATE INDEX nft_owner_idx ON nft (owner, collection, token_id);
CREATE INDEX nft_height_idx ON nft (collection, height, token_id);
CREATE INDEX nft_object_idx ON nft (object_addr) WHERE object_addr IS NOT NULL;

-- Every token ever seen (burnt ones too), for the tx links. Ids never change once committed.
CREATE TABLE nft_key (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  collection bytea NOT NULL,
  token_id   text COLLATE "C" NOT NULL,
  UNIQUE (collection, token_id)
);

-- tx <-> NFT: the txs that minted, transferred, changed or burnt the token.
CREATE TABLE tx_nft (
  nft_id   bigint NOT NULL,
  sequence bigint NOT NULL,
  PRIMARY KEY (nft_id, sequence)
);

CREATE TABLE nft_totals (
  id          smallint PRIMARY KEY CHECK (id = 1),
  collections bigint NOT NULL
);
INSERT INTO nft_totals (id, collections) VALUES (1, 0);

-- Trigram index for the by_name substring match when pg_trgm can be installed (it ships with PostgreSQL); without
-- it the match scans the collections, which stays cheap for the few thousand a chain has.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX nft_collection_search_idx ON nft_collection USING gin (search gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): /collections/by_name scans the collections', SQLERRM;
END $$;
