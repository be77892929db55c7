// Ink's own internal modules, reached through scripts/ink-plugin.ts (Ink's package exports
// only its index): the originals that src/ui/ink wraps or is tested against.
declare module "ink-original/sanitize-ansi.js" {
  const sanitizeAnsi: (text: string) => string;
  export default sanitizeAnsi;
}

declare module "ink-original/output.js" {
  export { default } from "ink/build/output.js";
}

declare module "ink-original/measure-text.js" {
  export { default } from "ink/build/measure-text.js";
}

declare module "ink-original/log-update.js" {
  export { default } from "ink/build/log-update.js";
}

declare module "ink-original/colorize.js" {
  const colorize: (
    text: string,
    color: string | undefined,
    type: "foreground" | "background",
  ) => string;
  export default colorize;
}

declare module "ink-original/components/AccessibilityContext.js" {
  export const AccessibilityContext: import("react").Context<{ isScreenReaderEnabled: boolean }>;
}

declare module "ink-original/components/BackgroundContext.js" {
  export const BackgroundContext: import("react").Context<string | undefined>;
}

declare module "ink-original/components/Text.js" {
  import type { TextProps } from "ink";
  import type { ReactNode } from "react";

  const Text: (props: TextProps) => ReactNode;
  export default Text;
}
