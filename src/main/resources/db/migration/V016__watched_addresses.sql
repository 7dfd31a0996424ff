-- Watched addresses (POST /v2/watch): one row per client and watched (chain, account bytes); the tracker follows every
-- cross-chain transfer such an account starts on that chain as if /v2/tx/track had been called, and links the tracked
-- tx to the account here (track_watch_tx, kept after the watch is deleted: it lists what /v2/tx/by_address serves).
CREATE TABLE track_watch (
  client     text NOT NULL,
  chain_id   text NOT NULL,
  address    bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client, chain_id, address)
);
CREATE INDEX track_watch_account ON track_watch (chain_id, address);

CREATE TABLE track_watch_tx (
  chain_id    text NOT NULL,
  address     bytea NOT NULL,
  height      bigint NOT NULL,
  transfer_id bigint NOT NULL REFERENCES track_transfer (id) ON DELETE CASCADE,
  PRIMARY KEY (chain_id, address, transfer_id)
);
-- /v2/tx/by_address: newest first by block height, then by transfer id (keyset pages)
CREATE INDEX track_watch_tx_newest ON track_watch_tx (chain_id, address, height DESC, transfer_id DESC);
