-- The fungible transfers of one account (in, out) and of one token, in chain order, for the keyset pages of
-- /indexer/account/v1/{address}/transfers and /indexer/token/v1/{denom}/transfers: each page walks one index from
-- its cursor instead of the whole table. (sequence, transfer_index) is the order: sequences follow heights.
CREATE INDEX fungible_transfer_from_idx ON fungible_transfer (from_address, sequence, transfer_index);
CREATE INDEX fungible_transfer_to_idx ON fungible_transfer (to_address, sequence, transfer_index);
CREATE INDEX fungible_transfer_token_idx ON fungible_transfer (token, sequence, transfer_index);
