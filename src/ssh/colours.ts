// Each `parley ssh` session's colours, from its own terminal: how many colours it shows
// (TERM and COLORTERM, which the client's ssh sends) and which theme (PARLEY_THEME, or its
// background as it answers OSC 11). Colour depth is one setting per process in chalk, so
// sessions are drawn in true colour and each session's frames are rewritten to what its
// terminal shows, with the same rounding chalk would do (src/ui/look/contrast.ts).
import { ansi256Index } from "../ui/look/contrast.ts";
import type { ThemeSetting } from "../ui/look/theme.ts";

export type ColourDepth = 16 | 256 | "truecolor";

/** What the session's terminal shows, as its environment says. */
export function colourDepth(env: Record<string, string | undefined>): ColourDepth {
  const colorterm = (env.COLORTERM ?? "").toLowerCase();
  const term = (env.TERM ?? "").toLowerCase();
  if (colorterm === "truecolor" || colorterm === "24bit" || term.endsWith("-direct")) {
    return "truecolor";
  }
  if (term.includes("256") || term === "xterm-kitty" || term === "alacritty") return 256;
  return 16;
}

const THEMES = new Set<string>(["auto", "dark", "light", "high-contrast"]);

/** PARLEY_THEME, if it names a theme (else `auto`: the terminal's background decides). */
export function themeSetting(env: Record<string, string | undefined>): ThemeSetting {
  const wanted = env.PARLEY_THEME?.toLowerCase() ?? "auto";
  return (THEMES.has(wanted) ? wanted : "auto") as ThemeSetting;
}

/** The nearest of the 16 colours to a 256-colour index, as ansi-styles picks it. */
function ansi16(index: number): number {
  if (index < 8) return 30 + index;
  if (index < 16) return 90 + (index - 8);
  let red: number;
  let green: number;
  let blue: number;
  if (index >= 232) {
    red = ((index - 232) * 10 + 8) / 255;
    green = red;
    blue = red;
  } else {
    const code = index - 16;
    const remainder = code % 36;
    red = Math.floor(code / 36) / 5;
    green = Math.floor(remainder / 6) / 5;
    blue = (remainder % 6) / 5;
  }
  const value = Math.max(red, green, blue) * 2;
  if (value === 0) return 30;
  const result = 30 + ((Math.round(blue) << 2) | (Math.round(green) << 1) | Math.round(red));
  return value === 2 ? result + 60 : result;
}

const SGR = /\x1b\[([\d;]*)m/g;

/** One SGR's parameters with every 24-bit (and, for 16, 256-) colour brought to `depth`. */
function rewrite(params: string, depth: 16 | 256): string {
  const p = params.split(";");
  const out: string[] = [];
  for (let i = 0; i < p.length; i++) {
    const code = p[i]!;
    if ((code === "38" || code === "48") && (p[i + 1] === "2" || p[i + 1] === "5")) {
      const index =
        p[i + 1] === "2"
          ? ansi256Index([Number(p[i + 2]), Number(p[i + 3]), Number(p[i + 4])])
          : Number(p[i + 2]);
      i += p[i + 1] === "2" ? 4 : 2;
      if (depth === 256) out.push(code, "5", String(index));
      else out.push(String(ansi16(index) + (code === "48" ? 10 : 0)));
    } else {
      out.push(code);
    }
  }
  return out.join(";");
}

/** `text` with its colours as a terminal of `depth` shows them. */
export function toDepth(text: string, depth: ColourDepth): string {
  if (depth === "truecolor" || !text.includes("\x1b[")) return text;
  return text.replace(SGR, (whole, params: string) =>
    params.includes("38;") || params.includes("48;") ? `\x1b[${rewrite(params, depth)}m` : whole,
  );
}
