// Signs a tx LEGACY_AMINO_JSON with cosmjs, as a Ledger or Keplr amino wallet does: an OfflineAminoSigner
// (@cosmjs/amino Secp256k1Wallet, a Cosmos secp256k1 key) behind SigningStargateClient, which converts each message to
// its amino form with cosmjs' own converters (cosmos-sdk/MsgSend, cosmos-sdk/MsgTransfer), signs the sorted StdSignDoc
// and builds the TxRaw (mode 127) from the amino round trip. Offline: the account number and sequence are given.
//
// Input: one JSON argument {key (hex), prefix, chain_id, account_number, sequence, memo, fee: {amount: [{denom,
// amount}], gas}, msgs: [{typeUrl, value}]} with values in cosmjs' camelCase form.
// Output: one JSON line {address, tx (base64 TxRaw)}.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.env.SKIP_CLIENT_MODULES, "noop.js"));
const { Secp256k1Wallet } = require("@cosmjs/amino");
const { SigningStargateClient } = require("@cosmjs/stargate");
const { TxRaw } = require("cosmjs-types/cosmos/tx/v1beta1/tx");

const input = JSON.parse(process.argv[2]);
const wallet = await Secp256k1Wallet.fromKey(Uint8Array.from(Buffer.from(input.key, "hex")), input.prefix);
const [{ address }] = await wallet.getAccounts();
const client = await SigningStargateClient.offline(wallet);
const msgs = input.msgs.map((m) => {
  const v = { ...m.value };
  if (v.timeoutTimestamp !== undefined) v.timeoutTimestamp = BigInt(v.timeoutTimestamp);
  if (v.timeoutHeight) v.timeoutHeight = { revisionNumber: BigInt(v.timeoutHeight.revisionNumber), revisionHeight: BigInt(v.timeoutHeight.revisionHeight) };
  return { typeUrl: m.typeUrl, value: v };
});
const raw = await client.sign(address, msgs, input.fee, input.memo,
  { accountNumber: input.account_number, sequence: input.sequence, chainId: input.chain_id });
console.log(JSON.stringify({ address, tx: Buffer.from(TxRaw.encode(raw).finish()).toString("base64") }));
