// WCAG 2 contrast between colours, and what a hex colour becomes on a 256-colour terminal.
// Pure: the themes' test measures every token with it (test/ui/theme.test.ts).

export type Rgb = readonly [number, number, number];

export function hexToRgb(hex: string): Rgb {
  const m = /^#?([\da-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = Number.parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The index chalk (ansi-styles) picks for a colour on a 256-colour terminal. */
export function ansi256Index([r, g, b]: Rgb): number {
  if (r === g && g === b) {
    if (r < 8) return 16;
    if (r > 248) return 231;
    return Math.round(((r - 8) / 247) * 24) + 232;
  }
  const step = (c: number) => Math.round((c / 255) * 5);
  return 16 + 36 * step(r) + 6 * step(g) + step(b);
}

const CUBE = [0, 95, 135, 175, 215, 255] as const;

/** The colour xterm shows for a 256-colour index from 16 up (the cube and the greys). */
export function xterm256(index: number): Rgb {
  if (index >= 232) {
    const v = 8 + 10 * (index - 232);
    return [v, v, v];
  }
  const i = index - 16;
  return [CUBE[Math.floor(i / 36)]!, CUBE[Math.floor(i / 6) % 6]!, CUBE[i % 6]!];
}

/** What a #rrggbb colour looks like on a 256-colour terminal, after chalk's rounding. */
export function as256(rgb: Rgb): Rgb {
  return xterm256(ansi256Index(rgb));
}
