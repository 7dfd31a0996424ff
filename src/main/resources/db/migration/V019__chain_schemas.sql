-- A chain indexed besides the first keeps its tables in a schema of its own (chain_<id>), reached through a pool whose
-- search_path is that schema, then public. Every migration runs in each such schema; this one removes there the tables
-- that exist once per deployment, so the unqualified names resolve to public's: the event log (one sequence over every
-- chain, written in the same transaction as each chain's rows), the tracker's transfers and watches (they span
-- chains) and the webhooks (they read the one log).
DO $$
BEGIN
  IF current_schema() <> 'public' THEN
    DROP TABLE IF EXISTS event_log, event_retention, track_watch_tx, track_watch, track_hop, track_transfer, track_cursor,
      webhook_dead_letters, webhooks;
    DROP FUNCTION IF EXISTS weft_event_lock();
  END IF;
END
$$;
