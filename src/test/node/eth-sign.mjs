// Signs Ethereum txs with ethers (pinned in tools/npm/skip-client), as a wallet does before eth_sendRawTransaction.
//
// Input: one JSON argument {key, txs}: the private key (0x hex) and an array of ethers TransactionRequest fields whose
// numbers are decimal strings (type, chainId, nonce, gasLimit, maxFeePerGas, maxPriorityFeePerGas, gasPrice, to,
// value, data). Output: one JSON line, an array of {raw, hash, from} in the same order.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.env.SKIP_CLIENT_MODULES, "noop.js"));
const { Wallet, Transaction } = require("ethers");

const input = JSON.parse(process.argv[2]);
const wallet = new Wallet(input.key);
const big = ["chainId", "gasLimit", "maxFeePerGas", "maxPriorityFeePerGas", "gasPrice", "value"];
const out = [];
for (const t of input.txs) {
  const fields = { ...t, nonce: Number(t.nonce), type: Number(t.type) };
  for (const k of big) if (t[k] !== undefined) fields[k] = BigInt(t[k]);
  const raw = await wallet.signTransaction(fields);
  const tx = Transaction.from(raw);
  out.push({ raw, hash: tx.hash, from: tx.from.toLowerCase() });
}
console.log(JSON.stringify(out));
