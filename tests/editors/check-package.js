// tests/editors/check-package.js -- run by tests/editors.sh as
//   node check-package.js EXTENSION-DIR < DIAGNOSTICS
// Checks that the VS Code extension's package.json contributes the language
// for .athread files with the grammar and language configuration it names
// (files that exist and parse, the grammar's scopeName), and prints, for every
// line of DIAGNOSTICS (athread's standard error) that the contributed problem
// matcher's pattern matches, FILE|LINE|COLUMN|SEVERITY|MESSAGE: VS Code
// applies the pattern as a JavaScript regular expression, as here.
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
const problems = [];
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const c = pkg.contributes || {};
const lang = (c.languages || []).find((l) => (l.extensions || []).includes('.athread'));
if (!lang) problems.push('no language for .athread');
else {
  const conf = JSON.parse(fs.readFileSync(path.join(dir, lang.configuration), 'utf8'));
  if (!conf.comments || conf.comments.lineComment !== '//' || String(conf.comments.blockComment) !== '/*,*/')
    problems.push(`${lang.configuration}: comments are not // and /* */`);
  const grammar = (c.grammars || []).find((g) => g.language === lang.id);
  if (!grammar) problems.push(`no grammar for language ${lang.id}`);
  else {
    const tm = JSON.parse(fs.readFileSync(path.join(dir, grammar.path), 'utf8'));
    if (tm.scopeName !== grammar.scopeName) problems.push(`${grammar.path}: scopeName ${tm.scopeName}, package.json says ${grammar.scopeName}`);
  }
}
const matcher = (c.problemMatchers || []).find((m) => m.name === 'athread');
if (!matcher) problems.push('no problem matcher named athread');
if (problems.length) {
  process.stderr.write(problems.map((p) => `check-package.js: ${p}\n`).join(''));
  process.exit(1);
}
const p = matcher.pattern;
const re = new RegExp(p.regexp);
for (const line of fs.readFileSync(0, 'utf8').split('\n')) {
  const m = re.exec(line);
  if (m) process.stdout.write([m[p.file], m[p.line], m[p.column], m[p.severity], m[p.message]].join('|') + '\n');
}
