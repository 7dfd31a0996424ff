-- Rich list (issue 6, EVM chains): ERC-20 balances per (token contract, account) from the Transfer logs of the indexed
-- txs, applied by the rich-list writer with its own cursor (pipeline_cursor 'richlist') in the same transaction.

CREATE TABLE rich_list_token (
  id       int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  contract bytea NOT NULL UNIQUE,          -- 20 bytes
  holders  bigint NOT NULL DEFAULT 0       -- accounts with a positive balance (the exact total of the endpoint)
);

-- Every account that ever held or moved the token; zero balances stay (they are the known holders a repair re-reads)
-- but are never listed.
CREATE TABLE rich_list (
  token_id int NOT NULL,
  account  bytea NOT NULL,                 -- 20 bytes
  amount   numeric NOT NULL,
  PRIMARY KEY (token_id, account)
);
CREATE INDEX rich_list_amount_idx ON rich_list (token_id, amount DESC, account) WHERE amount > 0;
-- which accounts the rich list knows (a mid-chain start reads the balances of an account it sees for the first time)
CREATE INDEX rich_list_account_idx ON rich_list (account);

-- Bank denom -> ERC-20 contract (minievm /minievm/evm/v1/contracts/by_denom), learned from the denoms the indexed txs
-- move, so a request never asks a node. denom_key: lower case, ibc/ hash upper case (rollytics' normalisation).
CREATE TABLE evm_denom (
  denom     text PRIMARY KEY,
  denom_key text NOT NULL,
  contract  bytea NOT NULL
);
CREATE INDEX evm_denom_key_idx ON evm_denom (denom_key);

-- First statement of every rich-list transaction: fails it (SQLSTATE WI001, as the other writers' checks) unless the cursor is where the writer
-- expects it, so balances are never applied twice or with a gap.
CREATE FUNCTION weft_richlist_expect(p_height bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  c bigint;
BEGIN
  SELECT height INTO c FROM pipeline_cursor WHERE name = 'richlist' FOR UPDATE;
  IF c IS DISTINCT FROM p_height THEN
    RAISE EXCEPTION 'rich list position moved: cursor % (expected %)', c, p_height USING ERRCODE = 'WI001';
  END IF;
END $$;
