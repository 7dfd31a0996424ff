// Rebuilds signed Ethereum txs from their eth_getTransactionByHash JSON with ethers (pinned in tools/npm/skip-client),
// independently of the devnet's own encoder: ethers serialises the EIP-1559 envelope, hashes it and recovers the
// sender from the signature.
//
// Input: one JSON argument, an array of RPC transaction objects. Output: one JSON line, an array of
// {hash, from, serialized} in the same order.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.env.SKIP_CLIENT_MODULES, "noop.js"));
const { Transaction, toBeHex } = require("ethers");

const out = JSON.parse(process.argv[2]).map((t) => {
  const type = Number(t.type);
  const fees = type === 2 ? { maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas), maxFeePerGas: BigInt(t.maxFeePerGas) }
    : { gasPrice: BigInt(t.gasPrice) };
  // a legacy tx has no yParity field: its v (chainId * 2 + 35 + y) carries it
  const yParity = type === 0 ? Number((BigInt(t.v) - 35n) % 2n) : Number(t.yParity);
  const tx = Transaction.from({
    type, chainId: BigInt(t.chainId), nonce: Number(t.nonce), ...fees, gasLimit: BigInt(t.gas), to: t.to, value: BigInt(t.value),
    data: t.input, ...(type === 0 ? {} : { accessList: t.accessList }),
    signature: { r: toBeHex(BigInt(t.r), 32), s: toBeHex(BigInt(t.s), 32), yParity },
  });
  return { hash: tx.hash, from: tx.from.toLowerCase(), serialized: tx.serialized };
});
console.log(JSON.stringify(out));
