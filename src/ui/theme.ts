// Semantic colours: components ask for `theme.unread`, never "cyan". With NO_COLOR
// (https://no-color.org) every token is undefined and Ink prints no colour at all;
// selection and focus stay visible through markers, bold and inverse.
import { createContext, useContext } from "react";

export type Theme = {
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
  color: boolean;
};

export const colorTheme: Theme = {
  accent: "cyan",
  dim: "gray",
  self: "green",
  other: "magenta",
  unread: "yellow",
  error: "red",
  success: "green",
  warning: "yellow",
  border: "gray",
  focusBorder: "cyan",
  selectionBg: "blue",
  placeholder: "gray",
  color: true,
};

export const monochromeTheme: Theme = { color: false };

export function themeFor(env: NodeJS.ProcessEnv): Theme {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== "" ? monochromeTheme : colorTheme;
}

export const ThemeContext = createContext<Theme>(colorTheme);
export const useTheme = () => useContext(ThemeContext);
