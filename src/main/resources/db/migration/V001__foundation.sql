-- Progress of each pipeline (ingest, evm, richlist): the last height fully committed. /status reads these rows;
-- every pipeline updates its row in the same transaction as the data of that height, so a restart resumes exactly.
CREATE TABLE pipeline_cursor (
  name       text PRIMARY KEY,
  height     bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO pipeline_cursor (name, height) VALUES ('ingest', 0), ('evm', 0), ('richlist', 0);
