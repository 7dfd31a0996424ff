// Compiles the test contracts with solc-js (offline: npm `solc` bundles the compiler) and prints
// {"<Contract>": {"bytecode": "0x…", "abi": […]}} as JSON on stdout. Usage: node compile.js <contracts dir>
const fs = require('fs');
const path = require('path');
const solc = require('solc');
const dir = process.argv[2];
const sources = {};
for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.sol'))) {
  sources[f] = { content: fs.readFileSync(path.join(dir, f), 'utf8') };
}
const input = {
  language: 'Solidity',
  sources,
  settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (out.errors || []).filter(e => e.severity === 'error');
if (errors.length) { console.error(errors.map(e => e.formattedMessage).join('\n')); process.exit(1); }
const result = {};
for (const file of Object.keys(out.contracts)) {
  for (const [name, c] of Object.entries(out.contracts[file])) {
    result[name] = { bytecode: '0x' + c.evm.bytecode.object, abi: c.abi };
  }
}
process.stdout.write(JSON.stringify(result));
