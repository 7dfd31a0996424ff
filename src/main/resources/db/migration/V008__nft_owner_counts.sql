-- Live NFTs per (owner, collection), so the totals of an account's tokens and collections never count the nft table:
-- an account's tokens = the sum of its rows, its collections = its rows with tokens, one collection = one row.
-- Statement triggers keep it in the transaction of the statement that changes nft, whatever that statement is
-- (mint, upsert, transfer, burn): each adds the rows it wrote and subtracts the rows it replaced, so a statement that
-- rewrites a token as it was (a height processed again) changes nothing.
CREATE TABLE nft_owner_collection (
  owner      bytea NOT NULL,
  collection bytea NOT NULL,
  tokens     bigint NOT NULL,
  PRIMARY KEY (owner, collection)
);

CREATE FUNCTION weft_nft_owner_count() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO nft_owner_collection AS s (owner, collection, tokens)
    SELECT owner, collection, count(*) FROM new_rows GROUP BY owner, collection
    ON CONFLICT (owner, collection) DO UPDATE SET tokens = s.tokens + EXCLUDED.tokens;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE nft_owner_collection s SET tokens = s.tokens - d.k
    FROM (SELECT owner, collection, count(*) AS k FROM old_rows GROUP BY owner, collection) d
    WHERE s.owner = d.owner AND s.collection = d.collection;
  ELSE
    INSERT INTO nft_owner_collection AS s (owner, collection, tokens)
    SELECT owner, collection, sum(k) FROM (
      SELECT owner, collection, 1 AS k FROM new_rows
      UNION ALL SELECT owner, collection, -1 FROM old_rows) d
    GROUP BY owner, collection HAVING sum(k) <> 0
    ON CONFLICT (owner, collection) DO UPDATE SET tokens = s.tokens + EXCLUDED.tokens;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER nft_owner_count_insert AFTER INSERT ON nft REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION weft_nft_owner_count();
CREATE TRIGGER nft_owner_count_update AFTER UPDATE ON nft REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION weft_nft_owner_count();
CREATE TRIGGER nft_owner_count_delete AFTER DELETE ON nft REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION weft_nft_owner_count();

-- the tokens already indexed
INSERT INTO nft_owner_collection (owner, collection, tokens) SELECT owner, collection, count(*) FROM nft GROUP BY owner, collection;
