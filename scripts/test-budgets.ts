/**
 * Fails when a test's own waits add up to more than the time vitest gives it.
 *
 * A test that waits up to 60 s for something under vitest's 20 s default passes on a quiet
 * machine and fails on a loaded one with "Test timed out", not with the wait's own message. This
 * reads every test file, adds up the waits each test names (`until(…, ms)`, a process's
 * `waitFor(pattern, ms)`, Playwright's `{ timeout: ms }`, `waitForTimeout(ms)`; a wait inside
 * `for (…; i < N; …)` counts N times) and compares the sum with the test's budget: its own
 * `timeout`, else its describe's, else the config's. Waits hidden in helpers are not seen; the
 * figure is a floor, not the truth.
 *
 * Usage: tsx scripts/test-budgets.ts   (exit 1 and one line per test when any is short)
 */
import { globSync, readFileSync } from 'node:fs';
import ts from 'typescript';

/** vitest.config.ts's testTimeout. */
const CONFIG_BUDGET = 20_000;
/** `until`'s default in tests/support/monitor.ts and a process's `waitFor` default in processes.ts. */
const UNTIL_DEFAULT = 15_000;
const WAIT_FOR_DEFAULT = 60_000;

function literal(e: ts.Node | undefined): number | undefined {
  if (!e) return undefined;
  if (ts.isNumericLiteral(e)) return Number(e.text.replace(/_/g, ''));
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.AsteriskToken) {
    const [a, b] = [literal(e.left), literal(e.right)];
    return a !== undefined && b !== undefined ? a * b : undefined;
  }
  return undefined;
}

/**
 * The `timeout` a test or describe call declares: a number argument or an options object's;
 * one computed at run time (`(MINUTES + 3) * 60_000`) is taken on trust.
 */
function declaredTimeout(call: ts.CallExpression): number | undefined {
  for (const a of call.arguments.slice(1)) {
    if (ts.isArrowFunction(a) || ts.isFunctionExpression(a) || ts.isStringLiteralLike(a)) continue;
    if (ts.isObjectLiteralExpression(a)) {
      for (const p of a.properties)
        if (ts.isPropertyAssignment(p) && p.name.getText() === 'timeout') return literal(p.initializer) ?? Infinity;
      continue;
    }
    return literal(a) ?? Infinity;
  }
  return undefined;
}

/** `it.skipIf(x)('name', …)` is named `it.skipIf`. */
function calleeName(call: ts.CallExpression): string {
  let e: ts.Expression = call.expression;
  while (ts.isCallExpression(e)) e = e.expression;
  return e.getText();
}

/** How many times a `for (let i = 0; i < N; i++)` runs, when N is written as a number. */
function loopCount(n: ts.Node): number {
  if (!ts.isForStatement(n) || !n.condition || !ts.isBinaryExpression(n.condition)) return 1;
  return literal(n.condition.right) ?? 1;
}

/** The waits named in a test's body, in ms. */
function waitsIn(body: ts.Node): number {
  let total = 0;
  const walk = (n: ts.Node, times: number): void => {
    if (ts.isCallExpression(n)) {
      const name = n.expression.getText();
      if (/(^|\.)until$/.test(name)) total += times * (literal(n.arguments[1]) ?? UNTIL_DEFAULT);
      else if (/\.waitForTimeout$/.test(name)) total += times * (literal(n.arguments[0]) ?? 0);
      else if (
        /\.waitFor$/.test(name) &&
        name !== 'vi.waitFor' &&
        n.arguments[0] &&
        ts.isRegularExpressionLiteral(n.arguments[0])
      )
        total += times * (literal(n.arguments[1]) ?? WAIT_FOR_DEFAULT);
    }
    if (ts.isPropertyAssignment(n) && n.name.getText() === 'timeout') total += times * (literal(n.initializer) ?? 0);
    ts.forEachChild(n, (c) => walk(c, times * loopCount(n)));
  };
  walk(body, 1);
  return total;
}

const short: string[] = [];
for (const file of globSync('tests/**/*.test.ts').sort()) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node, budget: number): void => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n);
      if (/^describe(\.|$)/.test(name)) {
        const own = declaredTimeout(n) ?? budget;
        n.arguments.forEach((a) => visit(a, own));
        return;
      }
      const body = n.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (/^(it|test)(\.|$)/.test(name) && body) {
        const own = declaredTimeout(n) ?? budget;
        const waits = waitsIn(body);
        if (waits > own) {
          const line = source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
          short.push(`${file}:${line}: waits up to ${waits} ms within a budget of ${own} ms`);
        }
        return;
      }
    }
    ts.forEachChild(n, (c) => visit(c, budget));
  };
  visit(source, CONFIG_BUDGET);
}
if (short.length > 0) {
  console.error(
    `${short.length} test(s) wait longer than their time budget; give each a timeout of at least its waits:`,
  );
  for (const s of short) console.error(`  ${s}`);
  process.exit(1);
}
console.log('every test gives itself at least the time its own waits allow');
