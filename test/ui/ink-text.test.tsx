// parley's port of Ink's Text (src/ui/ink/text.ts, swapped in by scripts/ink-plugin.ts)
// against Ink's own: the same frames, colours included, for each style, nested Texts and
// backgrounds inherited from a Box or a Text.
import { Box, Text, type TextProps } from "ink";
import InkText from "ink-original/components/Text.js";
import { render } from "ink-testing-library";
import type { ComponentType, ReactElement } from "react";
import { describe, expect, it } from "vitest";
import { trueColourForFile } from "./helpers.ts";

trueColourForFile();

type Case = (T: ComponentType<TextProps>) => ReactElement;

const STYLES: TextProps[] = [
  {},
  { color: "green" },
  { color: "#ff8800" },
  { color: "ansi256(123)" },
  { color: "rgb(1, 2, 3)" },
  { backgroundColor: "blue" },
  { dimColor: true },
  { bold: true, italic: true },
  { underline: true, strikethrough: true },
  { inverse: true, color: "red", backgroundColor: "white" },
  { wrap: "truncate-end" },
  { wrap: "truncate-middle", color: "cyan" },
];

const CASES: [string, Case][] = [
  ...STYLES.map((props, i): [string, Case] => [
    `style ${i} ${JSON.stringify(props)}`,
    (T) => (
      <Box width={12}>
        <T {...props}>a line long enough to wrap or be cut</T>
      </Box>
    ),
  ]),
  [
    "nested Texts, each its own style",
    (T) => (
      <T color="yellow">
        a <T bold>bold</T> and <T color="magenta">magenta</T> <T dimColor>dim</T> end
      </T>
    ),
  ],
  [
    "a background from a Box, through an unstyled Text to a styled one",
    (T) => (
      <Box backgroundColor="blue">
        <T>
          plain <T color="white">white on blue</T>
        </T>
      </Box>
    ),
  ],
  [
    "a background from a Text, replaced below and inherited past it",
    (T) => (
      <T backgroundColor="green">
        g <T backgroundColor="red">r</T> <T>still g</T> <T color="black">black on g</T>
      </T>
    ),
  ],
  [
    "an inherited background under an inverse Text",
    (T) => (
      <T backgroundColor="green">
        <T inverse color="red">
          x
        </T>{" "}
        <T underline>y</T>
      </T>
    ),
  ],
  ["nothing to show", (T) => <T color="red">{null}</T>],
];

describe("parley's Text", () => {
  for (const [name, draw] of CASES) {
    it(`draws as Ink's does: ${name}`, () => {
      const ours = render(draw(Text));
      const ink = render(draw(InkText));
      try {
        expect(ours.lastFrame()).toBe(ink.lastFrame());
      } finally {
        ours.unmount();
        ink.unmount();
      }
    });
  }

  it("is a different component from Ink's (the swap happened), and the frames have colour", () => {
    expect(Text).not.toBe(InkText);
    const drawn = render(<Text color="green">green</Text>);
    try {
      expect(drawn.lastFrame()).toContain("\x1b[32m");
    } finally {
      drawn.unmount();
    }
  });
});
