-- The node an operator asked to write a chain (POST /admin/chains/{chain_id}/writer): while it runs that chain's
-- roles, the others leave the chain's writer leases to it. One table per deployment, so it is created in public only
-- (a chain's schema resolves the name to public's).
DO $$
BEGIN
  IF current_schema() = 'public' THEN
    CREATE TABLE writer_preference (
      chain_id text PRIMARY KEY,
      node_id  text NOT NULL,
      created  timestamptz NOT NULL DEFAULT now()
    );
  END IF;
END
$$;
