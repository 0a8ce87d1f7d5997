import { amountDigits, APR_DIGITS, usdPriceDigits, USD_WHOLE_FROM } from '../../src/shared/format';
import { positionPriceDecimals, RATIO_DIGITS, tickDecimals } from '../../src/shared/units';
import { ASSETS, POOL_SPECS } from '../../src/sim/chain/assets';
import { isStable } from '../../src/shared/risk-model/stable';

/** The decimals of every ratio shown, a reading or a threshold (`ratioText`, units.ts): "1.200". */
export { RATIO_DIGITS };

/**
 * The product's number rules (docs/formats.md) as checks on a text as a person reads it: a
 * screen's text or a tooltip, an alert's title or message, a channel's message, a command's output.
 * Each check counts what it looked at, so a test can tell a rule that held from one that found
 * nothing to look at.
 */

/**
 * The decimals of the Demo network's pools' ticks (SUI_USDC's 4, WAL_USDC's 5, XBTC_USDC's 1, …):
 * a position's USD price is written at its pool's (`PositionSummary.price_decimals`).
 */
export const TICK_DIGITS: readonly number[] = [
  ...new Set(
    POOL_SPECS.map((s) =>
      tickDecimals({
        tick_size: s.tickSize,
        base_asset_decimals: ASSETS[s.base]!.decimals,
        quote_asset_decimals: ASSETS[s.quote]!.decimals,
      }),
    ),
  ),
];

/**
 * Each dollar-quoted pool of the Demo network by name, with its tick's decimals: a position's
 * prices in a text that names its pool are written at them (WAL_USDC's 5: "$0.19650", XBTC_USDC's
 * 1: "$119,763.4"), never by their size ("$0.2356", "$117,115.57").
 */
export const POOL_PRICE_DIGITS: ReadonlyMap<string, number> = new Map(
  POOL_SPECS.filter((s) => s.quote === 'USDC').map((s) => [
    s.name,
    tickDecimals({
      tick_size: s.tickSize,
      base_asset_decimals: ASSETS[s.base]!.decimals,
      quote_asset_decimals: ASSETS[s.quote]!.decimals,
    }),
  ]),
);

/**
 * A position's price named as one: its liquidation price, its break-even, the price its base
 * liquidates it at ("WAL at $0.19125 (−6.6 %) liquidates it"), a close's price "per SUI".
 */
const POSITION_PRICE =
  /(?:liquidation (?:at|price,?)|liq\. |break-even(?: price)?|[A-Z]{2,5} (?:at|now)|on average) \$(\d[\d,]*)(?:\.(\d+))?(?![\d,.]*\d)|\$(\d[\d,]*)(?:\.(\d+))? per [A-Z]{2,5}\b/gu;

/** A relative time as the page writes it (format.ts `ago`): "just now", "45 s ago", "12 h ago", "3 days ago". */
const RELATIVE = /^(?:just now|\d+ (?:s|min|h|days) ago)$/u;

/** The assets of the Demo network: "<number> <symbol>" is an amount of one of them. */
export const ASSET_SYMBOLS = ['SUI', 'USDC', 'DEEP', 'WAL', 'NS', 'XBTC'] as const;

/** What the scan reads of a rendered page (the DOM, typed here without the DOM's library). */
interface PageNode {
  nodeValue: string | null;
  parentElement: { tagName: string; closest(selector: string): PageElement | null } | null;
}
export interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  ownerDocument: { createTreeWalker(root: PageElement, show: number): { nextNode(): PageNode | null } };
}

export type Rule =
  | 'percent'
  | 'minus'
  | 'amount'
  | 'usd'
  | 'apr'
  | 'zone'
  | 'clock'
  | 'date'
  | 'relative'
  | 'ratio'
  | 'column'
  | 'address'
  | 'price'
  | 'money';

export interface Finding {
  rule: Rule;
  where: string;
  /** The figure that breaks the rule, and the text around it. */
  found: string;
  context: string;
}

/** What the checks looked at: each rule's figures, and the findings. */
export class FormatScan {
  readonly checked: Record<Rule, number> = {
    percent: 0,
    minus: 0,
    amount: 0,
    usd: 0,
    apr: 0,
    zone: 0,
    clock: 0,
    date: 0,
    relative: 0,
    ratio: 0,
    column: 0,
    address: 0,
    price: 0,
    money: 0,
  };
  readonly findings: Finding[] = [];

  /**
   * `priceDigits`: the decimals a USD price may take besides those of its size
   * (`usdPriceDigits`): the ticks of the pools whose positions the texts show ("$108,757.4" on
   * XBTC_USDC's 0.1 tick, "$0.19650" on WAL_USDC's 0.00001).
   */
  constructor(private readonly priceDigits: readonly number[] = TICK_DIGITS) {}
  /**
   * The full addresses and ids the texts may show: one written shorter than in full is in the one
   * short form (`shortIdText`: "0x1763a7…d999"), never cut ("0x1763a75696", "0x0424ac76…").
   */
  private readonly ids = new Set<string>();
  /** Tells the scan of addresses the views show (a 64-digit wallet), so a cut one is known as cut. */
  knownIds(ids: Iterable<string>): void {
    for (const id of ids) this.ids.add(id.toLowerCase());
  }
  /** Whole-dollar figures seen in a block of money written by one rule (`data-money-block`). */
  private readonly blockFigures = new Set<string>();
  /** Every amount written, by its text ("3,757.2372 SUI"), with where it was seen. */
  readonly amounts = new Map<string, Set<string>>();

  private find(rule: Rule, where: string, text: string, m: RegExpMatchArray): void {
    const at = m.index ?? 0;
    this.findings.push({ rule, where, found: m[0], context: text.slice(Math.max(0, at - 30), at + m[0].length + 30) });
  }

  /**
   * A text as shown. `tooltip`: a title, where an amount is given in full (its decimals are not its
   * asset's) and a clock time says its zone. `zoned`: a text read on its own, away from the page
   * (an alert, a message, a tooltip): every clock time in it names its zone. `position`: a text
   * about one position (its alert, its message, the digest's line, the repair panel's cost of
   * doing nothing), whose money is its own: to the cent whatever its size ("$17,064.12", never
   * "$17,064" beside "$4,015.45").
   */
  text(
    where: string,
    text: string,
    o: { tooltip?: boolean; zoned?: boolean; position?: boolean; block?: boolean } = {},
  ): void {
    // A percentage: the number, a narrow no-break space, "%".
    for (const m of text.matchAll(/\d(\s*)%/gu)) {
      this.checked.percent++;
      if (m[1] !== '\u202F') this.find('percent', where, text, m);
    }
    // A negative figure: the true minus sign, never the hyphen-minus (a date's "2026-11-23" is no sign).
    for (const m of text.matchAll(/(?<![\w.\-/])[-\u2212](?=\$?\d)/gu)) {
      this.checked.minus++;
      if (m[0] === '-') this.find('minus', where, text, m);
    }
    // An amount of an asset: its asset's decimals (a tooltip gives it in full). A price in a
    // quote asset ("3.3800 USDC per SUI") is no amount.
    if (!o.tooltip)
      for (const m of text.matchAll(
        new RegExp(`(?<![\\w.:$])\\d[\\d,]*(?:\\.(\\d+))? (${ASSET_SYMBOLS.join('|')})\\b(?! per )`, 'gu'),
      )) {
        this.checked.amount++;
        const digits = m[1]?.length ?? 0;
        if (digits !== amountDigits(m[2]!)) this.find('amount', where, text, m);
        // A bound never reads zero ("≤ 0.0000 XBTC" for 0.0000178): money, or "< 0.0001 XBTC".
        const before = text.slice(0, m.index ?? 0);
        if (!/[1-9]/.test(m[0].split(' ')[0]!) && /(?:\u2264|at most|up to)\s*$/u.test(before))
          this.find('amount', where, text, m);
        // An amount that reads zero beside its money is said in money ("$1.35", never "0.0000 XBTC ($1.35)").
        if (
          !/[1-9]/.test(m[0].split(' ')[0]!) &&
          /^ \(\$[\d,]*\.?\d*[1-9]/u.test(text.slice((m.index ?? 0) + m[0].length))
        )
          this.find('amount', where, text, m);
        // A stablecoin's amount is its money (counted at $1.00): written once, never repeated in
        // dollars beside it ("584.16 USDC", never "584.16 USDC ($584.16)").
        if (isStable(m[2]!) && text.slice((m.index ?? 0) + m[0].length).startsWith(` ($${m[0].split(' ')[0]})`))
          this.find('amount', where, text, m);
        const seen = this.amounts.get(m[0]) ?? new Set<string>();
        this.amounts.set(m[0], seen.add(where));
      }
    // A dollar figure: money (cents below $10,000, whole dollars from it), or a USD price with
    // its digits, trailing zeros kept ("$0.1870", never "$0.187"): by its size, or a pool's tick's
    // (a position's prices: "$108,757.4"); compact money ("$1.2M") aside.
    for (const m of text.matchAll(/(?<![\w.])\$(\d[\d,]*)(?:\.(\d+))?(?![\d,.]*\d|[KMBT])/gu)) {
      this.checked.usd++;
      const digits = m[2]?.length ?? 0;
      const value = Number(`${m[1]!.replace(/,/g, '')}.${m[2] ?? '0'}`);
      // In a block of money written by one rule (`data-money-block`: the liquidation map), whole
      // dollars under $10,000 are its rule's (checked for the block by `columns`), once seen there.
      if (o.block && digits === 0) this.blockFigures.add(m[0]);
      const inBlock = digits === 0 && (o.block || this.blockFigures.has(m[0]));
      const money = digits === 2 || (digits === 0 && (value >= USD_WHOLE_FROM || inBlock));
      if (!money && digits !== usdPriceDigits(value) && !this.priceDigits.includes(digits))
        this.find('usd', where, text, m);
    }
    // An address: in full, or in the one short form ("0x1763a7…d999"), never cut another way.
    for (const m of text.matchAll(/(?<![\w.])0x[0-9a-fA-F]+(\u2026[0-9a-fA-F]*)?/gu)) {
      const hex = m[0].toLowerCase();
      const shortened = m[1] !== undefined;
      const cut = !shortened && [...this.ids].some((id) => id.length > hex.length && id.startsWith(hex));
      if (!shortened && !cut) continue;
      this.checked.address++;
      if (cut || !/^0x[0-9a-f]{6}\u2026[0-9a-f]{4}$/u.test(hex)) this.find('address', where, text, m);
    }
    // A position's own money, to the cent whatever its size (POSITION_USD_DIGITS), in a text about it.
    if (o.position)
      for (const m of text.matchAll(/(?<![\w.])[+\u2212]?\$(\d[\d,]*)(?:\.(\d+))?(?![\d,.]*\d|[KMBT])/gu)) {
        const digits = m[2]?.length ?? 0;
        if (digits !== 0 && digits !== 2) continue; // a price
        this.checked.money++;
        if (digits === 0) this.find('money', where, text, m);
      }
    // A position's price in a text that names its pool (one only): at that pool's tick.
    const pools = new Set([...text.matchAll(/\b[A-Z]{2,5}_[A-Z]{2,5}\b/gu)].map((m) => m[0]));
    const tick = pools.size === 1 ? POOL_PRICE_DIGITS.get([...pools][0]!) : undefined;
    if (tick !== undefined)
      for (const m of text.matchAll(POSITION_PRICE)) {
        this.checked.price++;
        const whole = m[1] ?? m[3]!;
        const digits = (m[2] ?? m[4])?.length ?? 0;
        const value = Number(`${whole.replace(/,/g, '')}.${m[2] ?? m[4] ?? '0'}`);
        if (digits !== tick && digits !== positionPriceDecimals(tick, value)) this.find('price', where, text, m);
      }
    // A borrow rate: two decimals, wherever it is named.
    for (const m of text.matchAll(/(?:Borrow rate|APR) (\d+)(?:\.(\d+))?\u202F%/gu)) {
      this.checked.apr++;
      if ((m[2]?.length ?? 0) !== APR_DIGITS) this.find('apr', where, text, m);
    }
    // A clock time: one style, the locale's (en-US: "8:14 PM", never "20:14"), and read on its own
    // it says its zone: "2:02 PM EST".
    for (const m of text.matchAll(
      /(?<![\w.:/])\d{1,2}:\d\d(?::\d\d)?(?![\d:])(\s?[AP]M)?(?: ([A-Z]{2,5}|GMT[+-]\d+))?/gu,
    )) {
      this.checked.clock++;
      if (!m[1]) this.find('clock', where, text, m);
      if (!o.zoned) continue;
      this.checked.zone++;
      // A span's zone is named once, after its end: "10:00 PM–7:00 AM EST".
      const spanEnd = /^\u2013\d{1,2}:\d\d(?::\d\d)?\s?[AP]M (?:[A-Z]{2,5}|GMT[+-]\d+)/u;
      if (!m[2] && !spanEnd.test(text.slice((m.index ?? 0) + m[0].length))) this.find('zone', where, text, m);
    }
    // A date in the clock's style, its month by name: "Nov 26, 5:57:53 PM EST", never "11/26/26, …".
    for (const m of text.matchAll(
      /(?<![\w./])(?:[A-Z][a-z]{2} \d{1,2}(?:, \d{4})?|\d{1,2}\/\d{1,2}\/\d{2,4})(?=,? \d{1,2}:\d\d)/gu,
    )) {
      this.checked.date++;
      if (m[0].includes('/')) this.find('date', where, text, m);
    }
    // A ratio, a reading or a threshold, with three decimals wherever it is named: "below 1.200",
    // "threshold 1.275", "ratio of 1.125", "liq. 1.125", "→ 1.200", a repair's "get back to 1.250",
    // "reaches 1.175", "withdrawals need 2.200".
    for (const m of text.matchAll(
      /(?:threshold|ratio(?: of)?|below|liq\.|warning|critical|back to|reaches|need|\u2192) \(?(\d+)(?:\.(\d+))?(?![\d.,]|\s?%|\s?[A-Z]{2,5}\b| (?:min|s|h|days?)\b)/gu,
    )) {
      this.checked.ratio++;
      if ((m[2]?.length ?? 0) !== RATIO_DIGITS) this.find('ratio', where, text, m);
    }
  }

  /**
   * The labels a chart's ratio axis drew (its plain numbers): one number of decimals on the whole
   * axis, a ratio's three ("1.250" over "1.200", never "1.25" beside "1.2").
   */
  ratioAxis(where: string, labels: readonly string[]): void {
    for (const label of labels) {
      const m = /^\d+(?:\.(\d+))?$/u.exec(label);
      if (!m) continue;
      this.checked.ratio++;
      if ((m[1]?.length ?? 0) !== RATIO_DIGITS) this.find('ratio', where, label, m);
    }
  }

  /** Every text of a rendered view: each text node, each tooltip (title) and label, and the whole text for figures split across nodes. */
  element(where: string, root: PageElement): void {
    const walker = root.ownerDocument.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement?.tagName;
      if (parent === 'STYLE' || parent === 'SCRIPT') continue;
      const t = n.nodeValue?.trim();
      // A time on the page names its zone, unless its column's heading says it once (data-zone).
      if (t)
        this.text(where, t, {
          zoned: !n.parentElement?.closest('[data-zone]'),
          block: n.parentElement?.closest('[data-money-block]') !== null,
        });
      // A relative time ("12 h ago") carries the absolute one, with its date or clock, in its tooltip.
      if (t && RELATIVE.test(t)) {
        this.checked.relative++;
        const title = n.parentElement?.closest('[title]')?.getAttribute('title') ?? '';
        if (!/\d{1,2}:\d\d:\d\d\s?[AP]M [A-Z]{2,5}/u.test(title))
          this.findings.push({ rule: 'relative', where, found: t, context: `tooltip "${title}"` });
      }
    }
    this.columns(where, root);
    for (const e of [root, ...root.querySelectorAll('[title], [aria-label]')]) {
      const title = e.getAttribute('title');
      if (title) this.text(`${where} (tooltip)`, title, { tooltip: true, zoned: true });
      const label = e.getAttribute('aria-label');
      if (label) this.text(`${where} (label)`, label, { tooltip: true });
    }
    // A percentage or a sign in a node of its own ("<strong>12</strong> %"): the text as read.
    const whole = (root.textContent ?? '').replace(/\s+(?=%)/gu, (s: string) =>
      s.includes('\u202F') ? '\u202F' : ' ',
    );
    const before = this.findings.length;
    const counted = { ...this.checked };
    this.text(`${where} (as read)`, whole, { tooltip: true });
    // What the nodes already told is not told twice.
    const seen = new Set(this.findings.slice(0, before).map((f) => f.found));
    this.findings.splice(before, Infinity, ...this.findings.slice(before).filter((f) => !seen.has(f.found)));
    Object.assign(this.checked, counted);
  }

  /**
   * Each table's columns of money: one rule per column (cents, or whole dollars once a figure of
   * the column reaches $10,000), never "$19,466" above "$2,778.82", a position's own figures
   * (the Portfolio's PnL, equity, assets and debt, always to the cent) too.
   */
  columns(where: string, root: PageElement): void {
    // A strip of totals (the Portfolio's equity, assets, debt, supplied) reads one rule of money, as
    // a column; so does a block of money (the liquidation map: its sides, clusters and cascades),
    // by its largest figure: whole dollars only where one reaches $10,000.
    for (const block of root.querySelectorAll('[data-money-block]')) {
      const figures = [
        ...(block.textContent ?? '').matchAll(/(?<![\d.])\$(\d[\d,]*)(?:\.(\d+))?(?![\d,.]*\d|[KMBT])/gu),
      ].filter((m) => (m[2]?.length ?? 0) === 0 || m[2]!.length === 2);
      if (figures.length === 0) continue;
      this.checked.column++;
      const whole = figures.filter((m) => m[2] === undefined);
      const largest = Math.max(...figures.map((m) => Number(m[1]!.replace(/,/g, ''))));
      if ((whole.length > 0 && whole.length < figures.length) || (whole.length > 0 && largest < USD_WHOLE_FROM))
        this.findings.push({
          rule: 'column',
          where: `${where} (block)`,
          found: figures.map((m) => m[0]).join(' | '),
          context: 'one block of money, one rule by its largest figure',
        });
    }
    for (const strip of root.querySelectorAll('.totals')) {
      const figures = [
        ...(strip.textContent ?? '').matchAll(/(?<![\d.])\$(\d[\d,]*)(?:\.(\d+))?(?![\d,.]*\d|[KMBT])/gu),
      ];
      if (figures.length < 2) continue;
      this.checked.column++;
      if (new Set(figures.map((m) => m[2]?.length ?? 0)).size > 1)
        this.findings.push({
          rule: 'column',
          where: `${where} (totals)`,
          found: figures.map((m) => m[0]).join(' | '),
          context: 'one strip of totals, two rules of money',
        });
    }
    for (const table of root.querySelectorAll('table')) {
      const byColumn = new Map<number, Array<{ text: string; digits: number }>>();
      /** Each column's times: relative ("12 h ago") or absolute ("Nov 26, 5:57 PM EST"). */
      const times = new Map<number, Array<{ text: string; relative: boolean }>>();
      for (const row of table.querySelectorAll('tbody > tr')) {
        let i = 0;
        for (const cell of row.querySelectorAll('td')) {
          const text = cell.textContent ?? '';
          const t = text.trim();
          if (
            RELATIVE.test(t) ||
            /^(?:(?:[A-Z][a-z]{2} \d{1,2}|\d{1,2}\/\d{1,2}\/\d{2,4}), (?:\d{4}, )?)?\d{1,2}:\d\d/u.test(t)
          )
            times.set(i, [...(times.get(i) ?? []), { text: t, relative: RELATIVE.test(t) }]);
          for (const m of text.matchAll(/(?<![\w.])\$(\d[\d,]*)(?:\.(\d+))?(?![\d,.]*\d|[KMBT])/gu)) {
            const list = byColumn.get(i) ?? [];
            byColumn.set(i, [...list, { text: m[0], digits: m[2]?.length ?? 0 }]);
          }
          i++;
        }
      }
      // A column of times reads one way: all relative, or all absolute.
      for (const [i, list] of times) {
        this.checked.column++;
        if (new Set(list.map((x) => x.relative)).size > 1)
          this.findings.push({
            rule: 'column',
            where: `${where} (column ${i + 1})`,
            found: list.map((x) => x.text).join(' | '),
            context: 'one column, relative and absolute times',
          });
      }
      for (const [i, figures] of byColumn) {
        // A column of USD prices is not money; a column of money has 0 or 2 decimals.
        if (!figures.every((f) => f.digits === 0 || f.digits === 2)) continue;
        this.checked.column++;
        if (new Set(figures.map((f) => f.digits)).size > 1)
          this.findings.push({
            rule: 'column',
            where: `${where} (column ${i + 1})`,
            found: figures.map((f) => f.text).join(' | '),
            context: 'one column, two rules of money',
          });
      }
    }
  }

  /** The findings, one a line, for a failing expectation's message. */
  report(): string {
    return this.findings.map((f) => `${f.rule} in ${f.where}: "${f.found}" in "…${f.context}…"`).join('\n');
  }
}
