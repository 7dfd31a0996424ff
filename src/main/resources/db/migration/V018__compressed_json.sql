-- Fewer bytes per tx: the API JSON of txs and EVM txs (two thirds of the history's bytes on disk) compressed, kept in
-- the heap row. V002 left rows below ~8 KB uncompressed (toast_tuple_target = 8160) to spare the writer pglz and a
-- TOAST insert per tx; at ~4.8 KB a row, one row fitted a page and half of each page stayed empty. With the default
-- target back, a row over ~2 KB is compressed; STORAGE MAIN compresses a value in place and moves it out of line only
-- when the compressed row still does not fit a page, so a read costs no TOAST lookup (PostgreSQL docs, "TOAST").
-- lz4 (faster than pglz) would be the better method, but the embedded PostgreSQL 17 binaries are built without it
-- ("compression method lz4 not supported"), so the server's default (pglz) is used; on a server built with lz4,
-- `ALTER TABLE tx ALTER COLUMN json SET COMPRESSION lz4` (and evm_tx) applies to rows written afterwards.
-- Rows written before this migration keep their form until they are rewritten.
ALTER TABLE tx ALTER COLUMN json SET STORAGE MAIN;
ALTER TABLE tx RESET (toast_tuple_target);
ALTER TABLE evm_tx ALTER COLUMN json SET STORAGE MAIN;
ALTER TABLE evm_tx RESET (toast_tuple_target);
