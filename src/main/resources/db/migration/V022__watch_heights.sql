-- Watched addresses, by height rather than by clock: a watch remembers its chain's head when it was made
-- (track_watch.from_height; null when the head could not be read: then its creation time is used, as before), so the
-- tracker looks for its transfers from that block on whatever the chain's block times say; and the tracker's read
-- position in the OFTSent logs of each EVM chain is durable (track_evm_cursor: the next block to read), written with
-- the watched txs it registered, so a tracker down longer than track.lookback_blocks misses no send. Tracking tables
-- are once per deployment: public only (see V019).
DO $$
BEGIN
  IF current_schema() = 'public' THEN
    ALTER TABLE track_watch ADD COLUMN from_height bigint;
    CREATE TABLE track_evm_cursor (
      chain_id    text PRIMARY KEY,
      next_height bigint NOT NULL,
      updated_at  timestamptz NOT NULL DEFAULT now()
    );
  END IF;
END
$$;
