// parley lays out message lines itself and hands Ink lines that fit; Ink measures them
// again and cuts with "…" any line it finds wider than its box. The two must agree on
// every width, so both use one string-width (package.json `overrides`).
import { Box } from "ink";
import measureText from "ink-original/measure-text.js";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { Message } from "../../src/api/schema.ts";
import { LineView } from "../../src/ui/messages/lines.tsx";
import { layoutItem } from "../../src/ui/messages/message-lines.ts";
import { displayWidth, terminalForm } from "../../src/ui/text/width.ts";

// Where string-width 8.3.0 (Ink's own, before) and 9.0.0 (parley's) disagree, and around.
const SAMPLES = [
  "plain",
  "漢字",
  "👍",
  "👍🏽",
  "❤️",
  "🇩🇪",
  "👩‍💻",
  "e\u0301",
  "1\u20e3", // keycaps without VS16
  "#\u20e3",
  "*\u20e3",
  "1\ufe0f\u20e3",
  "\u231a\ufe0e", // emoji in text presentation (VS15)
  "\u2614\ufe0e",
  "\u26a1\ufe0e",
  "क्षि", // Devanagari conjuncts
  "नमस्ते",
  "ক্ষ", // Bengali
  "กำ", // Thai
  "ที่",
  "ﾊﾞ",
];

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

describe("parley and Ink measure text alike", () => {
  it("gives every sample the width Ink gives it", () => {
    const disagree = SAMPLES.filter(
      (s) => displayWidth(s) !== measureText(terminalForm(s)).width,
    ).map((s) => `${s} parley ${displayWidth(s)}, Ink ${measureText(terminalForm(s)).width}`);
    expect(disagree).toEqual([]);
  });

  it("wraps a message of keycaps instead of Ink cutting it with …", () => {
    const text = `x${"1\u20e3".repeat(45)} end`;
    const message = Message.parse({
      id: "m1",
      conversation_id: "c1",
      contact: { id: "u1", username: "bob" },
      message: text,
      created_at: 1_700_000_000,
    });
    const width = 30;
    const lines = layoutItem({ kind: "message", key: "m1", message }, undefined, {
      width,
      me: "alice",
      now: 1_700_000_000,
    });
    const view = render(
      <Box flexDirection="column" width={width}>
        {lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <LineView key={i} line={line} />
        ))}
      </Box>,
    );
    unmount = view.unmount;
    const frame = view.lastFrame() ?? "";
    expect(frame).not.toContain("…");
    const body = frame.split("\n").slice(2).join("").replaceAll(" ", "");
    expect(body).toBe(text.replaceAll(" ", ""));
  });
});
