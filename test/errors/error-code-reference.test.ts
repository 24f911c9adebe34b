/**
 * The error-code reference is complete: every code of both catalogues is in it, once, and every
 * code a rule in src/ reports is catalogued. The type ItemCode already makes a rule with an
 * unknown code fail to compile; the scan below reads the source the same way, so a code smuggled
 * past the type (a cast, a `string` parameter) is caught too.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { FORMAT_DETAILS } from '../../src/accounts/payload/rules/field-formats.ts';
import { REPEATED_IN_FILE } from '../../src/cli/push/push-account-lines.ts';
import { ERROR_STATUS } from '../../src/errors/error-catalogue.ts';
import { ERROR_CODE_DOCS } from '../../src/errors/error-code-docs.ts';
import {
  ITEM_CODES,
  renderErrorCodeReference,
  TOP_LEVEL_CODES,
} from '../../src/errors/error-code-reference.ts';
import { ITEM_CODE_DOCS } from '../../src/errors/item-codes.ts';
import { ENGINE_DETAILS } from '../../src/validation/field-formats.ts';

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });

/** The functions that make an error item: `item(attr, code, detail)`, `report(…)`, `issue(…)`. */
const ITEM_MAKERS = new Set(['item', 'report', 'issue']);

/** Every string literal passed as the code of an item maker, or as a schema's `errorCode`, in src/. */
function codesUsedInSource(): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of sourceFiles('src')) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const literalsIn = (node: ts.Node, at: string) => {
      if (ts.isStringLiteralLike(node)) used.set(node.text, at);
      else if (ts.isConditionalExpression(node)) {
        literalsIn(node.whenTrue, at);
        literalsIn(node.whenFalse, at);
      }
    };
    const visit = (node: ts.Node) => {
      const at = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (ts.isCallExpression(node) && node.arguments.length >= 3) {
        const callee = node.expression;
        const name = ts.isIdentifier(callee)
          ? callee.text
          : ts.isPropertyAccessExpression(callee)
            ? callee.name.text
            : '';
        if (ITEM_MAKERS.has(name)) literalsIn(node.arguments[1], at);
      }
      if (ts.isPropertyAssignment(node) && node.name.getText() === 'errorCode')
        literalsIn(node.initializer, at);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return used;
}

describe('the error-code reference', () => {
  const reference = renderErrorCodeReference();

  it('documents every top-level code of the catalogue, with its status', () => {
    assert.deepEqual(Object.keys(ERROR_CODE_DOCS).sort(), Object.keys(ERROR_STATUS).sort());
    for (const code of TOP_LEVEL_CODES)
      assert.ok(reference.includes(`| \`${code}\` | ${ERROR_STATUS[code]} |`), `${code} is in the reference`);
  });

  it('documents every item code once', () => {
    const codes = ITEM_CODE_DOCS.map((doc) => doc.code);
    const repeated = codes.filter((code, i) => codes.indexOf(code) !== i);
    assert.deepEqual(repeated, [], 'a code belongs to one group of the catalogue');
    for (const code of ITEM_CODES)
      assert.ok(reference.includes(`| \`${code}\` |`), `${code} is in the reference`);
    for (const doc of ITEM_CODE_DOCS) assert.ok(doc.means && doc.todo && doc.where, doc.code);
  });

  it('catalogues the codes of the format tables', () => {
    const catalogued = new Set<string>(ITEM_CODES);
    for (const code of [...Object.keys(FORMAT_DETAILS), ...Object.keys(ENGINE_DETAILS)])
      assert.ok(catalogued.has(code), code);
  });

  it('catalogues every code a rule in src/ reports', () => {
    const used = codesUsedInSource();
    assert.ok(used.size > 150, `the scan finds the rules' codes (${used.size})`);
    assert.ok(used.has('meter_point_with_no_meters') && used.has('required'));
    const catalogued = new Set<string>(ITEM_CODES);
    const missing = [...used]
      .filter(([code]) => !catalogued.has(code))
      .map(([code, at]) => `${code} (${at})`);
    assert.deepEqual(missing, [], 'add them to src/errors/item-codes/');
  });

  it('documents the codes the whole-book preflight of ferry push reports', () => {
    // The identifiers repeated in a book report the API's own codes (meter_point_on_another_account, …).
    assert.ok(
      reference.includes(`| \`${REPEATED_IN_FILE}\` | — (ferry push report) |`),
      `${REPEATED_IN_FILE} is in the reference`,
    );
  });

  it('gives each table its own section, so the API reference lists and searches them', () => {
    const headings = reference.split('\n').filter((line) => line.startsWith('# '));
    assert.ok(headings.includes('# Top-level codes'));
    assert.ok(headings.includes('# Item codes: Field formats'));
    assert.ok(headings.includes('# Item codes: Account rules: meter points'));
    assert.match(reference, /\| `invalid_phone_number` \| Enter a valid phone number/);
  });
});
