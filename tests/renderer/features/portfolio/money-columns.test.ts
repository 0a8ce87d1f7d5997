import type { PositionSummary } from '../../../../src/shared/contract';
// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { usdColumnDigits, usdText } from '../../../../src/shared/format';
import { positionUsd } from '../../../../src/renderer/src/format';
import { moneyColumns } from '../../../../src/renderer/src/features/portfolio/money-columns';
import { FormatScan, type PageElement } from '../../../support/format-rules';
import { LONG_SUI, SHORT_SUI } from '../../support/portfolio';

describe('one rule of money per column (docs/formats.md)', () => {
  it("takes each column's decimals from its largest figure", () => {
    expect(usdColumnDigits([2_778.82, 19_466])).toBe(0);
    expect(usdColumnDigits([2_778.82, 9_999.99, null, undefined])).toBe(2);
    expect(usdColumnDigits([-12_000, 5])).toBe(0);
    // "$19,466" above "$2,779", never above "$2,778.82".
    expect([19_466, 2_778.82].map((v) => usdText(v, 'en-US', usdColumnDigits([19_466, 2_778.82])))).toEqual([
      '$19,466',
      '$2,779',
    ]);
  });

  it("gives the Portfolio's shock column one rule; a position's own figures are always to the cent", () => {
    const big = { ...LONG_SUI, collateral_usd: 19_466, debt_usd: 15_000, equity_usd: 4_466 };
    const small = { ...SHORT_SUI, collateral_usd: 2_778.82, debt_usd: 2_000, equity_usd: 778.82 };
    const shocked = (p: PositionSummary) => ({ equity: p === big ? 12_000 : 700.5, equity_change: -50 }) as never;
    expect(moneyColumns([big, small], shocked)).toEqual({ shocked: 0 });
    expect(moneyColumns([small], shocked)).toEqual({ shocked: 2 });
    // "$19,466.00" above "$2,778.82": the one rule of a position's money, whatever its size.
    expect([big, small].map((p) => positionUsd(p.collateral_usd))).toEqual(['$19,466.00', '$2,778.82']);
  });

  it('finds a column that mixes cents and whole dollars', () => {
    const page = document.createElement('div');
    page.innerHTML =
      '<table><tbody><tr><td>Long SUI</td><td>$19,466</td><td>$0.1965</td></tr>' +
      '<tr><td>Long WAL</td><td>$2,778.82</td><td>$3.3800</td></tr></tbody></table>';
    document.body.append(page);
    const scan = new FormatScan();
    scan.columns('table', page as unknown as PageElement);
    expect(scan.findings.map((f) => `${f.where}: ${f.found}`)).toEqual(['table (column 2): $19,466 | $2,778.82']);
    expect(scan.checked.column).toBe(1);
    page.remove();
  });
});
