/**
 * TypeScript's ESLint parser, except that every import reads as a value import. The cycle rule
 * (import-x/no-cycle, eslint.config.js) skips `import type` edges; through this parser a circle
 * closed only by type imports is a circle too, since it still ties the two modules together.
 * Only the files under src/ are parsed with it; the other rules see the same tree otherwise.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS: import-x loads its parsers with require()
const ts = require('@typescript-eslint/parser');

function asValueImports(program) {
  for (const node of program.body) {
    if (
      node.type === 'ImportDeclaration' ||
      node.type === 'ExportNamedDeclaration' ||
      node.type === 'ExportAllDeclaration'
    ) {
      if (node.importKind === 'type') node.importKind = 'value';
      if (node.exportKind === 'type') node.exportKind = 'value';
      for (const specifier of node.specifiers ?? []) {
        if (specifier.importKind === 'type') specifier.importKind = 'value';
        if (specifier.exportKind === 'type') specifier.exportKind = 'value';
      }
    } else if (node.type === 'TSImportEqualsDeclaration' && node.importKind === 'type') {
      node.importKind = 'value';
    }
  }
  return program;
}

module.exports = {
  meta: { name: 's04-cycle-parser', version: '1.0.0' },
  parseForESLint(code, options) {
    const result = ts.parseForESLint(code, options);
    asValueImports(result.ast);
    return result;
  },
};
