-- Account views (issue 57): time ranges on lists, per-category counts, EVM logs, the stats overview, NFT activity.

-- from_time/to_time on the lists: a time bound is a height bound found with one probe of this index (block times
-- never decrease, so time order is height order).
CREATE INDEX block_time_idx ON block (time_ns, height);
