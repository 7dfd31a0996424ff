-- The owners of Move fungible stores (rollytics' fa_store): a primary store's owner never changes (its transfer is
-- disabled), so a store → owner pair learned once (a PrimaryStoreCreatedEvent, or the store object's ObjectCore read
-- from the chain) attributes every later deposit or withdrawal that comes without its owner event.
CREATE TABLE move_fa_store (
  store_addr bytea PRIMARY KEY,
  owner      bytea NOT NULL
);
