-- Signed webhooks over the durable event log (event_log, V013). Each webhook has a durable cursor: the last sequence
-- it is done with (delivered with a 2xx, dead-lettered, or not matching its filters). The delivery writer moves it
-- only after the receiver acknowledged, so a crash repeats at most the deliveries that were in flight.
CREATE TABLE webhooks (
  id       text PRIMARY KEY,
  url      text NOT NULL,
  secret   text NOT NULL,          -- the HMAC key: the signature needs it in clear, so it is stored as given
  filters  jsonb NOT NULL,         -- the /v1/events filters, as given (chain_id, topic, account, tx_hash, transfer)
  cursor   bigint NOT NULL,
  created  timestamptz NOT NULL DEFAULT now()
);

-- Deliveries that failed for good (max_attempts reached, or a 4xx other than 408/429). The body is kept as it was sent
-- (retention may prune the event meanwhile), so a re-drive sends the same id and content, signed afresh.
CREATE TABLE webhook_dead_letters (
  webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  sequence   bigint NOT NULL,
  body       text NOT NULL,
  attempts   int NOT NULL,
  last_error text NOT NULL,
  redrive    boolean NOT NULL DEFAULT false,  -- asked to be delivered again (POST .../dead-letters/redrive)
  created    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (webhook_id, sequence)
);
CREATE INDEX webhook_dead_letters_redrive_idx ON webhook_dead_letters (webhook_id, sequence) WHERE redrive;
