// tests/editors/check-textmate.js -- run by tests/editors.sh as
//   node check-textmate.js GRAMMAR EXPECT FILE...
// Tokenizes every FILE with GRAMMAR through vscode-textmate and
// vscode-oniguruma (VS Code's own tokenizer, pinned in package-lock.json)
// and compares the scopes of every character with tests/editors/tokens.py's
// rows (EXPECT): the row's scope must be on the character's token, nested in
// it there may only be punctuation.definition scopes, and only a row that
// expects an invalid.* scope may have one. A character no row covers
// (whitespace between tokens) must have the file's scope alone. The file
// must end outside every begin/end rule (no comment or label left open).
// Writes, like tests/editors/check.vim:
//   COUNT<TAB>FILE<TAB>KIND<TAB>CHARACTERS-CHECKED<TAB>CHARACTERS-WRONG
//   WRONG<TAB>message          (the first three of each kind)
'use strict';
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

async function main() {
  const [grammarPath, expectPath, ...files] = process.argv.slice(2);
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.athread' ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const grammar = await registry.loadGrammar('source.athread');
  if (!grammar) throw new Error(`${grammarPath}: no grammar for source.athread`);

  const rows = new Map(files.map((f) => [f, []]));
  for (const line of fs.readFileSync(expectPath, 'utf8').split('\n')) {
    if (!line) continue;
    const f = line.split('\t');
    if (!rows.has(f[0])) rows.set(f[0], []);
    rows.get(f[0]).push({ line: +f[1], col: +f[2], len: +f[3], kind: f[4], scope: f[6], text: f[7] });
  }

  const out = [];
  for (const [file, fileRows] of rows) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    // The scopes of every UTF-16 unit of every line, and where each byte starts.
    const scopesAt = [];
    const unitOfByte = [];
    let stack = vsctm.INITIAL;
    let stoppedEarly = 0;
    for (const text of lines) {
      const r = grammar.tokenizeLine(text, stack);
      if (r.stoppedEarly) stoppedEarly++;
      const at = new Array(text.length);
      for (const t of r.tokens) for (let u = t.startIndex; u < Math.min(t.endIndex, text.length); u++) at[u] = t.scopes;
      scopesAt.push(at);
      const units = [];
      for (let u = 0; u < text.length; u++) {
        const n = Buffer.byteLength(text.slice(u, text.codePointAt(u) > 0xffff ? u + 2 : u + 1));
        for (let k = 0; k < n; k++) units.push(u);
        if (text.codePointAt(u) > 0xffff) u++;
      }
      unitOfByte.push(units);
      stack = r.ruleStack;
    }
    const counts = {};
    const wrong = {};
    const say = (kind, msg) => {
      wrong[kind] = (wrong[kind] || 0) + 1;
      if (wrong[kind] <= 3) out.push(`WRONG\t${msg}`);
    };
    const covered = lines.map(() => new Set());
    for (const row of fileRows) {
      counts[row.kind] = counts[row.kind] || 0;
      wrong[row.kind] = wrong[row.kind] || 0;
      const units = new Set();
      for (let b = row.col - 1; b < row.col - 1 + row.len; b++) units.add(unitOfByte[row.line - 1][b]);
      for (const u of units) {
        covered[row.line - 1].add(u);
        counts[row.kind]++;
        const scopes = scopesAt[row.line - 1][u] || [];
        const i = scopes.indexOf(row.scope);
        const bad =
          i < 0 ||
          scopes.slice(i + 1).some((s) => !s.startsWith('punctuation.definition.')) ||
          (!row.scope.startsWith('invalid.') && scopes.some((s) => s.startsWith('invalid.')));
        if (bad) say(row.kind, `${file}:${row.line}:${u + 1}: ${row.kind} '${row.text}': scopes ${scopes.join(' ')}, expected ${row.scope}`);
      }
    }
    counts.space = 0;
    wrong.space = 0;
    lines.forEach((text, l) => {
      for (let u = 0; u < text.length; u++) {
        if (covered[l].has(u)) continue;
        counts.space++;
        const scopes = scopesAt[l][u] || [];
        if (!/[ \t\r\f\v]/.test(text[u]) || scopes.join(' ') !== 'source.athread')
          say('space', `${file}:${l + 1}:${u + 1}: character ${JSON.stringify(text[u])} between tokens: scopes ${scopes.join(' ')}, expected source.athread alone`);
      }
    });
    counts.whole = 1;
    wrong.whole = 0;
    if (stack.depth !== 1) say('whole', `${file}: the file ends inside a begin/end rule (stack depth ${stack.depth})`);
    if (stoppedEarly) say('whole', `${file}: ${stoppedEarly} lines stopped early`);
    for (const kind of Object.keys(counts).sort()) out.push(`COUNT\t${file}\t${kind}\t${counts[kind]}\t${wrong[kind]}`);
  }
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((e) => {
  process.stderr.write(`check-textmate.js: ${e.stack || e}\n`);
  process.exit(1);
});
