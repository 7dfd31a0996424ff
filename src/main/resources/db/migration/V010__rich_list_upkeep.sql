-- Rich-list upkeep: every balance update is non-HOT (amount is indexed), so a catch-up leaves a dead row version and dead index entries per write.
-- Vacuum/analyze once 1000 + 2 % of the rows changed (defaults: 50 + 20 %), so dead versions are reclaimed and statistics kept during a catch-up, not after it.
ALTER TABLE rich_list SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000,
                           autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 1000);
