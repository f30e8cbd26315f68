// Records Ruff's F401/F841/F811 diagnostics and fixes on Debian's
// requests, flask and django into fixes.json (positions 0-based, UTF-16):
//   (cd /tmp/r && npm install @astral-sh/ruff-wasm-nodejs@0.17.4)
//   NODE_PATH=/tmp/r/node_modules node record.js > fixes.json
// plugins/diagnostics/rules TestRuffFixes replays them without Ruff.
const fs = require('fs');
const path = require('path');
const { Workspace, PositionEncoding } = require('@astral-sh/ruff-wasm-nodejs');
const root = '/usr/lib/python3/dist-packages';
const out = { ruff: Workspace.version(), projects: {} };
const ws = new Workspace({ lint: { select: ['F401', 'F841', 'F811'] } }, PositionEncoding.Utf16);
function walk(dir, files) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== '__pycache__') walk(p, files); }
    else if (e.name.endsWith('.py')) files.push(p);
  }
  return files;
}
for (const project of ['requests', 'flask', 'django']) {
  const files = walk(path.join(root, project), []).sort();
  const recs = {};
  for (const f of files) {
    const src = fs.readFileSync(f, 'utf8');
    let diags;
    try { diags = ws.check(src); } catch (e) { continue; }
    const rel = path.relative(root, f);
    const list = diags.filter(d => ['F401', 'F841', 'F811'].includes(d.code)).map(d => ({
      code: d.code,
      start: [d.start_location.row - 1, d.start_location.column - 1],
      end: [d.end_location.row - 1, d.end_location.column - 1],
      fix: d.fix ? d.fix.edits.map(e => ({ start: [e.location.row - 1, e.location.column - 1], end: [e.end_location.row - 1, e.end_location.column - 1], text: e.content || '' })) : null,
    }));
    if (list.length) recs[rel] = list;
  }
  out.projects[project] = { files: files.length, diagnostics: recs };
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
