-- Partitioned history (issue 56): the large append-only tables become range-partitioned on their stream's sequence,
-- so retention drops whole partitions instead of deleting rows, and a keyset page (a sequence bound) or a height range
-- (turned into a sequence range by the stores) scans only the partitions it needs. The key is the sequence, not the
-- height: every primary key, ON CONFLICT target and join of these tables is on the sequence already (a partitioned
-- table's unique constraints must include its partition key: PostgreSQL docs, "Table Partitioning", limitations), and
-- the edge tables have no height. Sequences follow heights, so a bound on heights is a bound on sequences.
--
-- Each table of today becomes the first partition of its new parent, FOR VALUES FROM (MINVALUE) TO (head + 1), head
-- being the stream's last sequence: no row is copied; ATTACH checks the bound with one read of the table, and the
-- existing indexes are attached to the parent's (equal definitions), not rebuilt. Later partitions are created ahead of
-- need by the writers (weft_partitions_ensure below, from store/Partitions) with the size of storage.partition_rows.
--
-- The streams: tx (txs and their account, message-type, category and multi-type edges, fungible transfers keyed by their
-- tx's sequence), evm_tx (EVM txs, their account edges and their logs), internal_tx (internal txs and their account
-- edges), event (the event log, one per deployment, in public only).
CREATE TABLE partitioned_table (
  name   text PRIMARY KEY,
  stream text NOT NULL CHECK (stream IN ('tx', 'evm_tx', 'internal_tx', 'event'))
);
INSERT INTO partitioned_table (name, stream) VALUES
  ('tx', 'tx'), ('tx_account', 'tx'), ('tx_msg_type', 'tx'), ('tx_multi_msg', 'tx'), ('tx_account_category', 'tx'),
  ('fungible_transfer', 'tx'), ('evm_tx', 'evm_tx'), ('evm_tx_account', 'evm_tx'), ('evm_log', 'evm_tx'),
  ('evm_internal_tx', 'internal_tx'), ('evm_internal_tx_account', 'internal_tx');
INSERT INTO partitioned_table (name, stream) SELECT 'event_log', 'event' WHERE current_schema() = 'public';

-- How far retention has dropped each stream of this schema: every row of the stream with a height at or below
-- pruned_height (and a sequence below pruned_sequence) is gone. Read by /status and by the reads of a pruned height.
CREATE TABLE retention_floor (
  stream          text PRIMARY KEY CHECK (stream IN ('tx', 'evm_tx', 'internal_tx')),
  pruned_height   bigint NOT NULL,
  pruned_sequence bigint NOT NULL           -- the first sequence kept
);
INSERT INTO retention_floor (stream, pruned_height, pruned_sequence) VALUES ('tx', 0, 1), ('evm_tx', 0, 1), ('internal_tx', 0, 1);

-- The last sequence of a stream: its counter (the event log: its last row or its identity's last value).
CREATE FUNCTION weft_stream_head(p_stream text) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN CASE p_stream
    WHEN 'tx' THEN (SELECT txs FROM ingest_totals WHERE id = 1)
    WHEN 'evm_tx' THEN (SELECT evm_txs FROM ingest_totals WHERE id = 1)
    WHEN 'internal_tx' THEN (SELECT internal_txs FROM evm_internal_totals WHERE id = 1)
    -- the identity's last value: a rolled-back insert consumed its numbers too, and the next row comes after them
    ELSE greatest((SELECT coalesce(max(sequence), 0) FROM event_log),
                  coalesce(pg_sequence_last_value(pg_get_serial_sequence('event_log', 'sequence')::regclass), 0))
  END;
END $$;

CREATE FUNCTION weft_v023_partition(t text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old text := t || '_p0';
  head bigint := weft_stream_head((SELECT stream FROM partitioned_table WHERE name = t));
  defs text[];
  cons text[];
  r record;
BEGIN
  -- the definitions of the indexes and constraints, to give the parent the same, under the same names
  SELECT coalesce(array_agg(pg_get_indexdef(x.indexrelid)) FILTER (WHERE c.conname IS NULL), '{}'),
         coalesce(array_agg(format('ALTER TABLE %I ADD CONSTRAINT %I %s', t, c.conname, pg_get_constraintdef(c.oid)))
                  FILTER (WHERE c.conname IS NOT NULL), '{}')
    INTO defs, cons
    FROM pg_index x LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
   WHERE x.indrelid = t::regclass;
  EXECUTE format('ALTER TABLE %I RENAME TO %I', t, old);
  FOR r IN SELECT ci.relname FROM pg_index x JOIN pg_class ci ON ci.oid = x.indexrelid WHERE x.indrelid = old::regclass LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.relname, left(r.relname, 60) || '_p0');
  END LOOP;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE (sequence)', t, old);
  IF t = 'event_log' THEN
    -- the parent owns the identity now (a partition may not have one of its own); it goes on from the last sequence
    EXECUTE 'ALTER TABLE event_log_p0 ALTER COLUMN sequence DROP IDENTITY';
  END IF;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%s)', t, old, head + 1);
  -- created on the parent after the attach, each finds its equal on the old table and adopts it (no index build)
  FOR i IN 1 .. coalesce(array_length(cons, 1), 0) LOOP EXECUTE cons[i]; END LOOP;
  FOR i IN 1 .. coalesce(array_length(defs, 1), 0) LOOP EXECUTE defs[i]; END LOOP;
  IF t = 'event_log' THEN
    EXECUTE format('ALTER TABLE event_log ALTER COLUMN sequence ADD GENERATED BY DEFAULT AS IDENTITY (START WITH %s)', head + 1);
  END IF;
END $$;

SELECT weft_v023_partition(name) FROM partitioned_table ORDER BY name;
DROP FUNCTION weft_v023_partition(text);

-- Creates the partitions a stream will need soon: while a table's partitions end at or below head + p_ahead (default
-- p_size), one more of p_size sequences after the last (so a writer always has a partition's worth of room ahead; a
-- writer whose one commit needs more passes a larger p_ahead). Run by the writers in
-- its own short transaction, never in a commit; the advisory lock serialises writers of several chains sharing the event
-- log. Each partition is created empty, then attached: ATTACH takes a SHARE UPDATE EXCLUSIVE lock on the parent, which
-- blocks neither reads nor inserts (CREATE TABLE ... PARTITION OF would take an ACCESS EXCLUSIVE one; PostgreSQL docs,
-- "Partition Maintenance"). With p_reshape (a writer starting), the empty partitions wholly above the head whose width
-- is not p_size (made with another storage.partition_rows, or by this migration) are dropped first and made again with
-- p_size; one that is busy (its lock not granted at once) or holds a row is left as it is. Answers the partitions created.
CREATE FUNCTION weft_partitions_ensure(p_size bigint, p_reshape boolean DEFAULT false, p_ahead bigint DEFAULT NULL) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  r record;
  p record;
  head bigint;
  top bigint;
  made int := 0;
  part text;
  used boolean;
BEGIN
  -- every lock wait bounded (the advisory lock's too): a writer that cannot get them now tries again at its next tick
  SET LOCAL lock_timeout = '2s';
  PERFORM pg_advisory_xact_lock(7305421023);
  FOR r IN
    SELECT t.name, t.stream, c.oid AS parent, n.nspname
      FROM (SELECT name, stream FROM partitioned_table UNION SELECT 'event_log', 'event') t
      JOIN pg_class c ON c.oid = to_regclass(t.name) JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'p'
  LOOP
    head := weft_stream_head(r.stream);
    IF p_reshape THEN
      FOR p IN SELECT * FROM weft_partition_bounds(r.parent) b WHERE b.lo > head AND b.hi - b.lo <> p_size ORDER BY b.lo DESC LOOP
        BEGIN
          EXECUTE format('LOCK TABLE %I.%I IN ACCESS EXCLUSIVE MODE NOWAIT', p.schema_name, p.partition_name);
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.%I)', p.schema_name, p.partition_name) INTO used;
          EXIT WHEN used;
          EXECUTE format('DROP TABLE %I.%I', p.schema_name, p.partition_name);
        EXCEPTION WHEN lock_not_available THEN
          EXIT;
        END;
      END LOOP;
    END IF;
    SELECT max(b.hi) INTO top FROM weft_partition_bounds(r.parent) b;
    top := coalesce(top, 1);
    WHILE top <= head + coalesce(p_ahead, p_size) LOOP
      part := r.name || '_p' || top;
      EXECUTE format('CREATE TABLE %I.%I (LIKE %s INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION)',
                     r.nspname, part, r.parent::regclass);
      EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I.%I FOR VALUES FROM (%s) TO (%s)',
                     r.parent::regclass, r.nspname, part, top, top + p_size);
      top := top + p_size;
      made := made + 1;
    END LOOP;
  END LOOP;
  RETURN made;
END $$;

-- The partitions of a partitioned table with their bounds (lo: null for MINVALUE; hi exclusive).
CREATE FUNCTION weft_partition_bounds(p_parent regclass)
RETURNS TABLE (schema_name text, partition_name text, lo bigint, hi bigint) LANGUAGE sql STABLE AS $$
  SELECT n.nspname::text, c.relname::text,
         (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''?(-?[0-9]+)''?\)'))[1]::bigint,
         (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''?(-?[0-9]+)''?\)'))[1]::bigint
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE i.inhparent = p_parent
$$;

-- Room ahead from the start (a first partition of 1,000,000 sequences per table: storage.partition_rows's default),
-- so rows written before a writer first runs weft_partitions_ensure with the configured size find a partition.
SELECT weft_partitions_ensure(1000000);
