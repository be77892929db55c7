// Semantic colours: components ask for `theme.unread`, never "cyan". Every colour is an
// explicit #rrggbb, so the terminal's own palette (Solarized remaps the 16 ANSI colours)
// cannot turn a token into the background; each theme is measured for contrast against
// the backgrounds it is meant for, as true colour and as the 256-colour cube chalk rounds
// it to (test/ui/theme.test.ts). With NO_COLOR (https://no-color.org) or FORCE_COLOR=0
// every token is undefined and Ink prints no colour at all; selection and focus stay
// visible through markers, bold, inverse and a double border.
import { createContext, useContext } from "react";

export type ThemeName = "dark" | "light" | "high-contrast";
/** What the config file's `theme` may say; `auto` asks the terminal (OSC 11). */
export type ThemeSetting = ThemeName | "auto";

export type Theme = {
  name: ThemeName | "monochrome";
  accent?: string;
  dim?: string;
  self?: string;
  other?: string;
  unread?: string;
  error?: string;
  success?: string;
  warning?: string;
  border?: string;
  focusBorder?: string;
  selectionBg?: string;
  placeholder?: string;
  /** A message that mentions you. */
  mention?: string;
  /** Senders' names: each person gets one by a hash of the user name (never `self`). */
  senders: readonly string[];
  color: boolean;
  /** Whether quiet text (times, previews) is drawn faint: only without colour. */
  faint: boolean;
};

/** For black and Solarized Dark (#002b36) backgrounds. */
export const darkTheme: Theme = {
  name: "dark",
  accent: "#5fd7ff",
  dim: "#a8a8a8",
  self: "#87d787",
  other: "#d7afff",
  unread: "#ffd75f",
  error: "#ff8787",
  success: "#87d787",
  warning: "#ffaf5f",
  border: "#8a8a8a",
  focusBorder: "#5fd7ff",
  selectionBg: "#005f87",
  placeholder: "#a8a8a8",
  mention: "#ffd75f",
  senders: ["#ff87af", "#ffaf5f", "#d7d75f", "#87afff", "#af87ff", "#5fd7d7", "#ffafd7", "#d7afff"],
  color: true,
  faint: false,
};

// The light colours sit just below a step of the 256-colour cube (0x4c, 0x7f), so chalk's
// rounding on a 256-colour terminal lands on the cube colour above (0x5f, 0x87), which
// is still dark enough for white and Solarized Light (#fdf6e3).
export const lightTheme: Theme = {
  name: "light",
  accent: "#004c7f",
  dim: "#5f5f5f",
  self: "#004c00",
  other: "#7f007f",
  unread: "#7f4c00",
  error: "#af0000",
  success: "#004c00",
  warning: "#7f4c00",
  border: "#767676",
  focusBorder: "#004c7f",
  selectionBg: "#afd7ff",
  placeholder: "#5f5f5f",
  mention: "#7f4c00",
  senders: ["#af004c", "#4c00af", "#7f007f", "#4c4c00", "#004c4c", "#0000af", "#af007f", "#7f4c00"],
  color: true,
  faint: false,
};

/**
 * No colour at all: text in the terminal's own foreground on its own background, the
 * only pair readable everywhere (no single colour reaches 4.5:1 on both white and
 * Solarized Dark; the theme test shows it), never faint; emphasis by bold and inverse.
 */
export const highContrastTheme: Theme = {
  name: "high-contrast",
  senders: [],
  color: false,
  faint: false,
};

export const monochromeTheme: Theme = {
  name: "monochrome",
  senders: [],
  color: false,
  faint: true,
};

export const THEMES: Record<ThemeName, Theme> = {
  dark: darkTheme,
  light: lightTheme,
  "high-contrast": highContrastTheme,
};

/** No colour asked for: NO_COLOR set (and not empty), or FORCE_COLOR=0 / false. */
export function colourOff(env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return true;
  return env.FORCE_COLOR === "0" || env.FORCE_COLOR === "false";
}

/**
 * The theme to draw with: the named one (`auto` resolved by the terminal's background,
 * dark when unknown), or no colour when the environment says so.
 */
export function themeFor(
  env: NodeJS.ProcessEnv,
  setting: ThemeSetting = "auto",
  background?: "dark" | "light",
): Theme {
  if (colourOff(env)) return monochromeTheme;
  if (setting === "auto") return background === "light" ? lightTheme : darkTheme;
  return THEMES[setting];
}

export const ThemeContext = createContext<Theme>(darkTheme);
export const useTheme = () => useContext(ThemeContext);
