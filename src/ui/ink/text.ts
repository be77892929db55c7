// Ink's Text (components/Text.js), drawing the same, with fewer objects per Text: Ink's
// wraps every Text in a BackgroundContext provider, and gives its ink-text a new style
// object and a new style-applying closure on every render. A screen is some 200 Texts, so
// that was some 200 more fibers per tree (twice, with React's alternates) and three
// objects per Text per frame, per client: per session under `parley ssh`. Here the
// provider is there only when this Text sets a background (the only case where what it
// provides differs from what it inherits), the style is one shared object, and an
// unstyled Text has no transform (Ink's would return its text unchanged). Stands in for
// Ink's Text inside Ink and for `import { Text } from "ink"` (scripts/ink-plugin.ts).
import chalk from "chalk";
import type { TextProps as Props } from "ink";
import colorize from "ink-original/colorize.js";
import { AccessibilityContext } from "ink-original/components/AccessibilityContext.js";
import { BackgroundContext } from "ink-original/components/BackgroundContext.js";
import { createElement, type ReactNode, use } from "react";

type Wrap = NonNullable<Props["wrap"]>;

/** One per wrap mode, shared by every Text: Ink reads it, never writes it. */
const STYLES = new Map<Wrap, object>();
const styleFor = (wrap: Wrap) => {
  let style = STYLES.get(wrap);
  if (!style) {
    style = { flexGrow: 0, flexShrink: 1, flexDirection: "row", textWrap: wrap };
    STYLES.set(wrap, style);
  }
  return style;
};

export default function Text({
  color,
  backgroundColor,
  dimColor = false,
  bold = false,
  italic = false,
  underline = false,
  strikethrough = false,
  inverse = false,
  wrap = "wrap",
  children,
  "aria-label": ariaLabel,
  "aria-hidden": ariaHidden = false,
}: Props): ReactNode {
  const { isScreenReaderEnabled } = use(AccessibilityContext);
  const inheritedBackgroundColor = use(BackgroundContext);
  const effectiveBackgroundColor = backgroundColor ?? inheritedBackgroundColor;
  const childrenOrAriaLabel = isScreenReaderEnabled && ariaLabel ? ariaLabel : children;
  if (
    childrenOrAriaLabel === undefined ||
    childrenOrAriaLabel === null ||
    (isScreenReaderEnabled && ariaHidden)
  ) {
    return null;
  }
  const styled =
    dimColor ||
    Boolean(color) ||
    Boolean(effectiveBackgroundColor) ||
    bold ||
    italic ||
    underline ||
    strikethrough ||
    inverse;
  const transform =
    isScreenReaderEnabled || !styled
      ? undefined
      : (text: string) => {
          if (dimColor) text = chalk.dim(text);
          text = colorize(text, color, "foreground");
          text = colorize(text, effectiveBackgroundColor, "background");
          if (bold) text = chalk.bold(text);
          if (italic) text = chalk.italic(text);
          if (underline) text = chalk.underline(text);
          if (strikethrough) text = chalk.strikethrough(text);
          if (inverse) text = chalk.inverse(text);
          return text;
        };
  const text = createElement(
    "ink-text",
    { style: styleFor(wrap), internal_transform: transform },
    childrenOrAriaLabel,
  );
  return backgroundColor === undefined
    ? text
    : createElement(BackgroundContext, { value: effectiveBackgroundColor }, text);
}
