/**
 * Draws the app and tray icons as PNG files (no image tools needed): a rounded wave mark on a
 * disc, coloured per tray state. Run with `npx tsx scripts/make-icons.ts`; the output is committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Rgb = [number, number, number];
/**
 * A disc with two white waves; anti-aliased by 4x4 supersampling. `cut`: a diagonal band taken
 * out of it (alerts do not get through), which shows on macOS's one-colour template images too.
 */
function mark(size: number, color: Rgb, opts: { template?: boolean; cut?: boolean } = {}): Buffer {
  return png(size, (px, py) => {
    let cover = 0;
    let wave = 0;
    for (let sy = 0; sy < 4; sy++) {
      for (let sx = 0; sx < 4; sx++) {
        const x = (px + (sx + 0.5) / 4) / size;
        const y = (py + (sy + 0.5) / 4) / size;
        const d = Math.hypot(x - 0.5, y - 0.5);
        if (d > 0.47) continue;
        if (opts.cut && Math.abs(x - y) / Math.SQRT2 < 0.055) continue;
        cover++;
        for (const base of [0.45, 0.62]) {
          const wy = base + 0.06 * Math.sin((x - 0.1) * Math.PI * 3.2);
          if (Math.abs(y - wy) < 0.045 && x > 0.16 && x < 0.84) {
            wave++;
            break;
          }
        }
      }
    }
    if (cover === 0) return [0, 0, 0, 0];
    if (opts.template) return [0, 0, 0, Math.round((255 * (cover - wave)) / 16)];
    const t = wave / cover;
    const c = color.map((v) => Math.round(v * (1 - t) + 255 * t)) as Rgb;
    return [...c, Math.round((255 * cover) / 16)];
  });
}

const STATES: Record<string, Rgb> = {
  ok: [26, 127, 75],
  warning: [215, 153, 34],
  critical: [198, 40, 40],
  offline: [120, 128, 140],
  // An alert channel not reached: the warning's colour, cut through.
  unreached: [215, 153, 34],
};
const CUT = new Set(['unreached']);
mkdirSync('resources/tray', { recursive: true });
mkdirSync('build', { recursive: true });
for (const [state, color] of Object.entries(STATES)) {
  const cut = CUT.has(state);
  writeFileSync(`resources/tray/${state}.png`, mark(16, color, { cut }));
  writeFileSync(`resources/tray/${state}@2x.png`, mark(32, color, { cut }));
  // macOS template images: black shapes on transparency, tinted by the menu bar.
  writeFileSync(`resources/tray/${state}Template.png`, mark(16, color, { template: true, cut }));
  writeFileSync(`resources/tray/${state}Template@2x.png`, mark(32, color, { template: true, cut }));
}
writeFileSync('build/icon.png', mark(512, [31, 111, 235]));
writeFileSync('resources/icon.png', mark(256, [31, 111, 235]));
console.log('icons written to resources/tray/, resources/icon.png and build/icon.png');
