// Ruff's wasm build (npm @astral-sh/ruff-wasm-nodejs) over a list of
// files, one thread: `node ruff.js PACKAGE_DIR format|check LIST`, LIST
// holding one path a line. Prints the files done, the failures, and the
// milliseconds (wall and CPU, every thread) from loading the module to
// the last file: node's exit
// waits seconds for its background wasm compiler, which is no part of
// formatting or checking.
const fs = require("fs");
const start = process.hrtime.bigint();
const cpu = process.cpuUsage();
const [pkg, mode, list] = process.argv.slice(2);
const ruff = require(pkg);
const ws = new ruff.Workspace(ruff.Workspace.defaultSettings(), ruff.PositionEncoding.Utf16);
let done = 0, failed = 0;
for (const f of fs.readFileSync(list, "utf8").split("\n").filter(Boolean)) {
  const src = fs.readFileSync(f, "utf8");
  try {
    if (mode === "format") ws.format(src); else ws.check(src);
    done++;
  } catch (e) {
    failed++;
  }
}
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ done, failed, ms, cpums: (used.user + used.system) / 1000 }));
process.exit(0);
