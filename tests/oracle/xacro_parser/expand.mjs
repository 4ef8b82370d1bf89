// Expands a xacro file with npm's xacro-parser (an independent implementation used as a
// test oracle and benchmark reference) and prints the resulting XML.
//   node expand.mjs FILE [--package-path DIR]... [NAME:=VALUE]... [--repeat N]
// With --repeat N it expands N times after one warm-up and prints the mean milliseconds per
// expansion instead: elapsed, then CPU (user + system; the figure to compare on a busy machine).
// The modules are found through NODE_PATH (the cache directory the test installs them into).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), 'x.js'));
const { DOMParser, XMLSerializer } = require('@xmldom/xmldom');
const { XacroParser } = require('xacro-parser');
globalThis.DOMParser = DOMParser;
globalThis.XMLSerializer = XMLSerializer;

let file = null;
let repeat = 0;
const packagePaths = [];
const args = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; ++i) {
  if (argv[i] === '--package-path') packagePaths.push(argv[++i]);
  else if (argv[i] === '--repeat') repeat = Number(argv[++i]);
  else if (argv[i].includes(':=')) {
    const [name, value] = argv[i].split(':=');
    args[name] = value;
  } else file = argv[i];
}

function findPackage(name) {
  for (const dir of packagePaths) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return path.resolve(candidate);
  }
  throw new Error(`package ${name} not found`);
}

async function expand() {
  const parser = new XacroParser();
  parser.workingPath = path.dirname(path.resolve(file)) + '/';
  parser.arguments = args;
  parser.rospackCommands = { find: findPackage };
  parser.getFileContents = async (p) => fs.promises.readFile(p, 'utf8');
  return parser.parse(fs.readFileSync(file, 'utf8'));
}

if (repeat > 0) {
  await expand();  // warm up
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < repeat; ++i) await expand();
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1e3;
  process.stdout.write(`${(elapsed / repeat).toFixed(4)} ${(cpuMs / repeat).toFixed(4)}\n`);
} else {
  process.stdout.write(new XMLSerializer().serializeToString(await expand()) + '\n');
}
