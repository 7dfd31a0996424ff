// End-to-end run of the official Skip Go client (@skip-go/client, pinned in tools/npm/skip-client) against Weft and
// the devnet, as a wallet uses it: route() then executeRoute() with a cosmjs signer, following the route through the
// client's status subscription until it is final, with balances read before and after on both chains. Also the seed
// flow: sign with cosmjs (fee "auto": the chain's Simulate), broadcast to the chain itself, then /v2/tx/track and
// /v2/tx/status, with the same balance check. The signer is the devnet's well-known test key, funded at genesis.
//
// Input: one JSON argument {api, chains: {<chain_id>: {rpc, rest}}, key (hex secp256k1), flows: [{name, amount,
// source_chain, source_denom, dest_chain, dest_denom, addresses?: {<chain_id>: address}, evm?: {chain_id, rpc},
// expect?: "failed"}], seed?: {...same fields}}. A flow with `evm` signs its EVM txs with viem (the same key's EVM
// account) on that chain's JSON-RPC; `addresses` names the user's address on a chain instead of the key's Cosmos
// address; `expect: "failed"` wants the route's final status "failed" and the amount refunded on the source.
// Output: one JSON line per flow {name, ok, status?, error?, balances?} on stdout; exit code 0 when every flow is ok.
import { createRequire } from "node:module";
import path from "node:path";

const modules = process.env.SKIP_CLIENT_MODULES;
const require = createRequire(path.join(modules, "noop.js"));
const skip = require("@skip-go/client/cjs"); // the package exports its CommonJS build there
const { DirectSecp256k1Wallet } = require("@cosmjs/proto-signing");
const { SigningStargateClient, GasPrice } = require("@cosmjs/stargate");
const viem = require("viem");
const { privateKeyToAccount } = require("viem/accounts");

const input = JSON.parse(process.argv[2]);
const key = Uint8Array.from(Buffer.from(input.key, "hex"));

async function signer(chainId) {
  return DirectSecp256k1Wallet.fromKey(key, "init");
}

async function balance(chainId, address, denom) {
  const r = await fetch(`${input.api}/v2/info/balances`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ chains: { [chainId]: { address, denoms: [denom] } } }),
  });
  const body = await r.json();
  return body?.chains?.[chainId]?.denoms?.[denom] ?? body;
}

// EVM chains of the flows: their JSON-RPC is where the client's EVM signer sends and reads
const endpoints = { ...input.chains };
for (const f of input.flows) if (f.evm) endpoints[f.evm.chain_id] = { rpc: f.evm.rpc };

skip.setClientOptions({
  apiUrl: input.api,
  endpointOptions: { endpoints },
});

function evmSigner(evm) {
  const chain = viem.defineChain({ id: Number(evm.chain_id), name: `chain ${evm.chain_id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [evm.rpc] } } });
  return viem.createWalletClient({ account: privateKeyToAccount(`0x${input.key}`), chain, transport: viem.http(evm.rpc) });
}

// The fees the user's txs paid, as {chainId: {denom: amount}}, read from each chain's REST tx endpoint.
async function feesPaid(broadcasts) {
  const fees = {};
  for (const { chainId, txHash } of broadcasts) {
    if (!input.chains[chainId]?.rest) continue; // an EVM tx pays its gas in the gas token, not in a flow's denom
    const r = await fetch(`${input.chains[chainId].rest}/cosmos/tx/v1beta1/txs/${txHash}`);
    const body = await r.json();
    for (const c of body?.tx?.auth_info?.fee?.amount ?? []) {
      fees[chainId] ??= {};
      fees[chainId][c.denom] = (fees[chainId][c.denom] ?? 0n) + BigInt(c.amount);
    }
  }
  return fees;
}

// Balance changes net of the fees paid: the source must lose exactly the amount in; the destination must gain exactly
// the amount for a transfer, and at least the route's minimum out for a swap. A flow expected to fail (refunded on the
// source) must leave both unchanged.
function checkBalances(flow, route, before, after, fees) {
  const fee = (chain, denom) => fees[chain]?.[denom] ?? 0n;
  const amountIn = BigInt(flow.amount);
  const srcDelta = BigInt(after[0].amount) - BigInt(before[0].amount) + fee(flow.source_chain, flow.source_denom);
  const dstDelta = BigInt(after[1].amount) - BigInt(before[1].amount) + fee(flow.dest_chain, flow.dest_denom);
  const swaps = route.doesSwap === true;
  const refunded = flow.expect === "failed";
  const srcExpected = refunded ? 0n : -amountIn;
  const minOut = refunded ? 0n : swaps ? 1n : amountIn;
  const problems = [];
  if (srcDelta !== srcExpected) problems.push(`source ${flow.source_chain} ${flow.source_denom} changed by ${srcDelta} net of fees, expected ${srcExpected}`);
  if (swaps && !refunded ? dstDelta < minOut : dstDelta !== minOut) {
    problems.push(`destination ${flow.dest_chain} ${flow.dest_denom} changed by ${dstDelta} net of fees, expected ${swaps && !refunded ? "at least " : ""}${minOut}`);
  }
  return { srcDelta: String(srcDelta), dstDelta: String(dstDelta), problems };
}

async function executeFlow(flow, cosmosAddress) {
  const addressOn = (chainId) => flow.addresses?.[chainId] ?? cosmosAddress;
  const route = await skip.route({
    amountIn: flow.amount, sourceAssetChainId: flow.source_chain, sourceAssetDenom: flow.source_denom,
    destAssetChainId: flow.dest_chain, destAssetDenom: flow.dest_denom,
  });
  const before = [await balance(flow.source_chain, addressOn(flow.source_chain), flow.source_denom),
    await balance(flow.dest_chain, addressOn(flow.dest_chain), flow.dest_denom)];
  let final;
  const broadcasts = [];
  // a route that fails on the way may end executeRoute() with an error after the final status was reported
  await skip.executeRoute({
    route,
    userAddresses: route.requiredChainAddresses.map((chainId) => ({ chainId, address: addressOn(chainId) })),
    getCosmosSigner: signer,
    ...(flow.evm ? { getEvmSigner: async () => evmSigner(flow.evm) } : {}),
    simulate: false,
    getFallbackGasAmount: async () => 300000,
    onTransactionBroadcast: async (tx) => { broadcasts.push(tx); },
    onRouteStatusUpdated: (s) => { if (s.status === "completed" || s.status === "failed" || s.status === "incomplete") final = s; },
  }).catch((e) => { if (flow.expect !== "failed" || !final) throw e; });
  const after = [await balance(flow.source_chain, addressOn(flow.source_chain), flow.source_denom),
    await balance(flow.dest_chain, addressOn(flow.dest_chain), flow.dest_denom)];
  const check = checkBalances(flow, route, before, after, await feesPaid(broadcasts));
  const ok = final?.status === (flow.expect ?? "completed") && check.problems.length === 0;
  return { ok, status: final?.status, txs: broadcasts, balances: { before, after, source_change: check.srcDelta, dest_change: check.dstDelta },
    ...(check.problems.length ? { error: check.problems.join("; ") } : {}) };
}

async function seedFlow(flow, address) {
  const msgs = await skip.messages({
    amountIn: flow.amount, amountOut: flow.amount, sourceAssetChainId: flow.source_chain, sourceAssetDenom: flow.source_denom,
    destAssetChainId: flow.dest_chain, destAssetDenom: flow.dest_denom,
    operations: (await skip.route({ amountIn: flow.amount, sourceAssetChainId: flow.source_chain, sourceAssetDenom: flow.source_denom,
      destAssetChainId: flow.dest_chain, destAssetDenom: flow.dest_denom })).operations,
    addressList: [address, address],
  });
  const before = [await balance(flow.source_chain, address, flow.source_denom), await balance(flow.dest_chain, address, flow.dest_denom)];
  const client = await SigningStargateClient.connectWithSigner(input.chains[flow.source_chain].rpc, await signer(flow.source_chain),
    { gasPrice: GasPrice.fromString("0.015uinit") });
  const m = msgs.txs[0].cosmosTx.msgs[0];
  const value = JSON.parse(m.msg);
  const res = await client.signAndBroadcast(address, [{ typeUrl: m.msgTypeUrl, value: {
    sourcePort: value.source_port, sourceChannel: value.source_channel, token: value.token, sender: value.sender,
    receiver: value.receiver, timeoutTimestamp: BigInt(value.timeout_timestamp), memo: value.memo ?? "" } }], "auto");
  await skip.trackTransaction({ txHash: res.transactionHash, chainId: flow.source_chain });
  const status = await skip.waitForTransaction({ txHash: res.transactionHash, chainId: flow.source_chain });
  const after = [await balance(flow.source_chain, address, flow.source_denom), await balance(flow.dest_chain, address, flow.dest_denom)];
  const check = checkBalances(flow, { doesSwap: false }, before, after,
    await feesPaid([{ chainId: flow.source_chain, txHash: res.transactionHash }]));
  return { ok: res.code === 0 && status.state === "STATE_COMPLETED_SUCCESS" && check.problems.length === 0, status: status.state,
    tx: res.transactionHash, balances: { before, after, source_change: check.srcDelta, dest_change: check.dstDelta },
    ...(check.problems.length ? { error: check.problems.join("; ") } : {}) };
}

const wallet = await signer();
const [{ address }] = await wallet.getAccounts();
let allOk = true;
for (const flow of input.flows) {
  let out;
  try {
    out = { name: flow.name, ...(await executeFlow(flow, address)) };
  } catch (e) {
    out = { name: flow.name, ok: false, error: String(e?.message ?? e) };
  }
  allOk &&= out.ok;
  console.log(JSON.stringify(out));
}
if (input.seed) {
  let out;
  try {
    out = { name: "seed flow", ...(await seedFlow(input.seed, address)) };
  } catch (e) {
    out = { name: "seed flow", ok: false, error: String(e?.message ?? e) };
  }
  allOk &&= out.ok;
  console.log(JSON.stringify(out));
}
process.exit(allOk ? 0 : 1);
