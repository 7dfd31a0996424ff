-- An owner's counter row that reaches zero is deleted by the statement that takes its last token, so the rows of
-- nft_owner_collection are exactly the (owner, collection) pairs with live tokens. V008 kept such rows at 0, and which
-- ones existed depended on where commit runs started and ended (a token minted to A and moved on to B in one run never
-- gave A a row; split over two runs it did), so a database resumed after a crash differed from a clean one.
CREATE OR REPLACE FUNCTION weft_nft_owner_count() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO nft_owner_collection AS s (owner, collection, tokens)
    SELECT owner, collection, count(*) FROM new_rows GROUP BY owner, collection
    ON CONFLICT (owner, collection) DO UPDATE SET tokens = s.tokens + EXCLUDED.tokens;
    RETURN NULL;
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
  -- only the pairs that lost tokens can have reached zero
  DELETE FROM nft_owner_collection s USING (SELECT DISTINCT owner, collection FROM old_rows) o
  WHERE s.owner = o.owner AND s.collection = o.collection AND s.tokens = 0;
  RETURN NULL;
END $$;

-- the rows V008 left at zero
DELETE FROM nft_owner_collection WHERE tokens = 0;
