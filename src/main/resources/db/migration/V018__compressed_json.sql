-- Fewer bytes per tx: the API JSON of txs and EVM txs (two thirds of the history's bytes on disk) compressed with lz4,
-- kept in the heap row. V002 left rows below ~8 KB uncompressed (toast_tuple_target = 8160) to spare the writer pglz
-- and a TOAST insert per tx; at ~4.8 KB a row, one fitted a page and half of each page stayed empty. lz4 compresses
-- and decompresses several times faster than pglz (PostgreSQL 14+, "default_toast_compression"), and STORAGE MAIN
-- compresses a value in place and moves it out of line only when the compressed row still does not fit a page, so a
-- read costs no TOAST lookup. Values written before this migration keep their form until they are rewritten.
ALTER TABLE tx ALTER COLUMN json SET COMPRESSION lz4, ALTER COLUMN json SET STORAGE MAIN;
ALTER TABLE tx RESET (toast_tuple_target);
ALTER TABLE evm_tx ALTER COLUMN json SET COMPRESSION lz4, ALTER COLUMN json SET STORAGE MAIN;
ALTER TABLE evm_tx RESET (toast_tuple_target);
ALTER TABLE block ALTER COLUMN json SET COMPRESSION lz4, ALTER COLUMN json SET STORAGE MAIN;
