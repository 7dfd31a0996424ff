-- Transfer tracking (POST /v2/tx/track, GET /v2/tx/status). One row per tracked tx; one row per hop of the transfers
-- it started (hop details as JSON: packet keys, the txs seen on each chain, acks and errors); one cursor per chain the
-- tracker polls. Only the tracker (a single writer) changes states; API nodes insert new rows and re-arm abandoned
-- ones (armed = true: the tracker picks them up on its next poll and clears the flag in the same transaction).
CREATE TABLE track_transfer (
  id          bigserial PRIMARY KEY,
  chain_id    text NOT NULL,
  tx_hash     text NOT NULL,
  state       text NOT NULL,
  armed       boolean NOT NULL DEFAULT true,
  tx          jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  progress_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, tx_hash)
);
CREATE INDEX track_transfer_armed ON track_transfer (id) WHERE armed;
CREATE INDEX track_transfer_open ON track_transfer (id) WHERE state IN ('STATE_SUBMITTED', 'STATE_PENDING', 'STATE_PENDING_ERROR');

CREATE TABLE track_hop (
  transfer_id   bigint NOT NULL REFERENCES track_transfer (id) ON DELETE CASCADE,
  flow_index    int NOT NULL,
  hop_index     int NOT NULL,
  kind          text NOT NULL,
  state         text NOT NULL,
  from_chain_id text NOT NULL,
  to_chain_id   text NOT NULL,
  data          jsonb NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (transfer_id, flow_index, hop_index)
);

CREATE TABLE track_cursor (
  chain_id   text PRIMARY KEY,
  height     bigint NOT NULL,
  time_nanos bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
