// Every colour token of every theme is readable on the backgrounds the theme is for:
// WCAG contrast of at least 4.5:1 for text and 3:1 for borders and markers, measured for
// the explicit #rrggbb colour (true-colour terminals) and for the 256-colour cube colour
// chalk rounds it to (xterm-256color, tmux), whose values are fixed whatever the palette.
import { describe, expect, it } from "vitest";
import { as256, contrast, hexToRgb, luminance, type Rgb } from "../../src/ui/look/contrast.ts";
import { senderColor } from "../../src/ui/look/sender-color.ts";
import {
  darkTheme,
  highContrastTheme,
  lightTheme,
  monochromeTheme,
  type Theme,
  themeFor,
} from "../../src/ui/look/theme.ts";

const BACKGROUNDS = {
  black: "#000000",
  white: "#ffffff",
  "Solarized Dark": "#002b36",
  "Solarized Light": "#fdf6e3",
} as const;
type Background = keyof typeof BACKGROUNDS;

const TEXT = [
  "accent",
  "dim",
  "self",
  "other",
  "unread",
  "error",
  "success",
  "warning",
  "placeholder",
  "mention",
] as const;
const MARKERS = ["border", "focusBorder"] as const;

function measure(theme: Theme, on: readonly Background[]) {
  const rows: { token: string; on: Background; as: string; ratio: number; need: number }[] = [];
  const add = (token: string, hex: string | undefined, need: number) => {
    if (hex === undefined) throw new Error(`${theme.name} has no ${token}`);
    for (const bg of on) {
      const back = hexToRgb(BACKGROUNDS[bg]);
      for (const [as, rgb] of [
        ["true colour", hexToRgb(hex)],
        ["256 colours", as256(hexToRgb(hex))],
      ] as [string, Rgb][]) {
        rows.push({ token, on: bg, as, ratio: contrast(rgb, back), need });
      }
    }
  };
  for (const token of TEXT) add(token, theme[token], 4.5);
  for (const token of MARKERS) add(token, theme[token], 3);
  for (const [i, hex] of theme.senders.entries()) add(`senders[${i}]`, hex, 4.5);
  return rows;
}

describe("theme contrast", () => {
  it.each([
    [darkTheme, ["black", "Solarized Dark"]],
    [lightTheme, ["white", "Solarized Light"]],
  ] as [Theme, Background[]][])("%s.name: every token readable on its backgrounds", (theme, on) => {
    const rows = measure(theme, on);
    const failing = rows.filter((r) => r.ratio < r.need);
    expect(failing.map((r) => `${r.token} on ${r.on} (${r.as}): ${r.ratio.toFixed(2)}`)).toEqual(
      [],
    );
    expect(rows.length).toBeGreaterThan(50);
  });

  it("no single colour is readable on both white and Solarized Dark: high-contrast uses the terminal's own pair", () => {
    // Best case over every luminance: the weaker of the two contrasts stays below 4.5:1.
    const white = luminance(hexToRgb(BACKGROUNDS.white));
    const solarized = luminance(hexToRgb(BACKGROUNDS["Solarized Dark"]));
    let best = 0;
    for (let l = 0; l <= 1; l += 0.0005) {
      const worse = Math.min((white + 0.05) / (l + 0.05), (l + 0.05) / (solarized + 0.05));
      best = Math.max(best, worse);
    }
    expect(best).toBeLessThan(4.5);
    // So high-contrast names no colour: text is the terminal's foreground on its background.
    for (const token of [...TEXT, ...MARKERS]) expect(highContrastTheme[token]).toBeUndefined();
    expect(highContrastTheme.senders).toEqual([]);
    expect(highContrastTheme.faint).toBe(false);
  });

  it("picks the theme from the setting, the background and the environment", () => {
    expect(themeFor({}, "auto")).toBe(darkTheme);
    expect(themeFor({}, "auto", "light")).toBe(lightTheme);
    expect(themeFor({}, "light", "dark")).toBe(lightTheme);
    expect(themeFor({}, "high-contrast")).toBe(highContrastTheme);
    expect(themeFor({ NO_COLOR: "1" }, "light")).toBe(monochromeTheme);
    expect(themeFor({ FORCE_COLOR: "0" }, "dark")).toBe(monochromeTheme);
  });
});

describe("sender colours", () => {
  it("are stable per name, spread over the palette, and never your own colour", () => {
    for (const theme of [darkTheme, lightTheme]) {
      expect(theme.senders).not.toContain(theme.self);
      expect(senderColor(theme, "carol")).toBe(senderColor(theme, "carol"));
      const names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan"];
      const used = new Set(names.map((n) => senderColor(theme, n)));
      expect(used.size).toBeGreaterThanOrEqual(4);
      for (const n of names) expect(senderColor(theme, n)).not.toBe(theme.self);
    }
  });
});
