-- NFT activity (issue 57): what explorers rebuilt by scanning a token's or collection's txs one by one (Celatone's
-- sequencer tier): each mint, transfer, burn and URI change of a token, written by the ingest commit from the same
-- folded events as the token rows, and the tx that created a collection. Per-chain tables (nothing shared).
CREATE TABLE nft_activity (
  collection bytea NOT NULL,
  sequence   bigint NOT NULL,            -- the tx
  position   int NOT NULL,               -- the change's index among its block's NFT events: chain order within the tx
  token_id   text COLLATE "C" NOT NULL,
  kind       smallint NOT NULL,          -- 1 mint, 2 transfer, 3 burn, 4 URI change
  account    bytea,                      -- mint: the owner; transfer: the new owner; else null
  height     bigint NOT NULL,
  PRIMARY KEY (collection, sequence, position)
);
CREATE INDEX nft_activity_token_idx ON nft_activity (collection, token_id, sequence, position);

-- The tx that created the collection (Move, Wasm: its creation event; EVM: the earliest indexed tx touching the
-- contract, as the creator and height already are).
ALTER TABLE nft_collection ADD COLUMN sequence bigint;

-- Collections indexed before: the earliest indexed tx touching the collection's address (one probe of tx_account's
-- primary key per collection; a chain has a few thousand at most). The activity rows of changes indexed before are not
-- rebuilt: that would need the events again.
UPDATE nft_collection c SET sequence = (
  SELECT ta.sequence FROM account ac JOIN tx_account ta ON ta.account_id = ac.id
  WHERE ac.address = c.addr ORDER BY ta.sequence LIMIT 1)
WHERE c.sequence IS NULL;
