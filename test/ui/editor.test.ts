import { type Key, Text, useInput, usePaste } from "ink";
import { render } from "ink-testing-library";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { seededRandom } from "../../src/server/demo/random.ts";
import {
  applyKey,
  backspace,
  clear,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordAfter,
  deleteWordBefore,
  down,
  type EditorState,
  end,
  fromText,
  home,
  insert,
  layoutDraft,
  left,
  right,
  up,
  wordLeft,
  wordRight,
} from "../../src/ui/composer/editor.ts";
import { displayWidth } from "../../src/ui/text/width.ts";
import { pause } from "../wait.ts";
import { key } from "./ink-key.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function boundaries(value: string): Set<number> {
  const set = new Set<number>([value.length]);
  for (const { index } of segmenter.segment(value)) set.add(index);
  return set;
}

function expectOnBoundary(state: EditorState): void {
  expect(boundaries(state.value).has(state.cursor)).toBe(true);
}

/** `|` marks the cursor: s("ab|c") is { value: "abc", cursor: 2 }. */
function s(marked: string): EditorState {
  const cursor = marked.indexOf("|");
  return { value: marked.slice(0, cursor) + marked.slice(cursor + 1), cursor };
}

function show(state: EditorState): string {
  return `${state.value.slice(0, state.cursor)}|${state.value.slice(state.cursor)}`;
}

const random = seededRandom;

describe("grapheme-correct deletion", () => {
  it.each([
    ["skin tone", "👍🏽"],
    ["ZWJ family", "👨‍👩‍👧"],
    ["flag", "🇺🇸"],
    ["combining accent", "e\u0301"],
    ["CJK", "你"],
    ["keycap", "1\ufe0f\u20e3"],
  ])("Backspace after a %s removes all of it", (_name, g) => {
    const after = backspace(s(`ab${g}|c`));
    expect(show(after)).toBe("ab|c");
    expect(after.value.isWellFormed()).toBe(true);
  });

  it.each([["👍🏽"], ["👨‍👩‍👧"], ["🇺🇸"], ["e\u0301"]])(
    "Delete before %s removes all of it",
    (g) => {
      expect(show(deleteForward(s(`a|${g}b`)))).toBe("a|b");
    },
  );

  it("does nothing at the edges and returns the same state", () => {
    const start = s("|abc");
    expect(backspace(start)).toBe(start);
    const stop = s("abc|");
    expect(deleteForward(stop)).toBe(stop);
  });
});

describe("cursor movement by grapheme", () => {
  it("steps over whole graphemes", () => {
    let state = s("|a👍🏽👨‍👩‍👧🇺🇸e\u0301b");
    const seen: string[] = [];
    while (state.cursor < state.value.length) {
      const next = right(state);
      seen.push(state.value.slice(state.cursor, next.cursor));
      state = next;
    }
    expect(seen).toEqual(["a", "👍🏽", "👨‍👩‍👧", "🇺🇸", "e\u0301", "b"]);
    const back: number[] = [];
    while (state.cursor > 0) {
      state = left(state);
      back.push(state.cursor);
    }
    expect(back).toEqual([...boundaries(state.value)].sort((x, y) => y - x).slice(1));
  });

  it("keeps the cursor on a boundary through random edits", () => {
    const next = random(11);
    // Single code points; some join what is before them into one grapheme, or pair up: a
    // skin tone, a ZWJ, regional indicators, a combining mark.
    const pieces = [..."a \n👍🏽\u200d👨🇺🇸e\u0301你\t\r"];
    const ops = [
      backspace,
      deleteForward,
      left,
      right,
      wordLeft,
      wordRight,
      home,
      end,
      deleteWordBefore,
      deleteWordAfter,
      deleteToLineStart,
      deleteToLineEnd,
      (x: EditorState) => up(x) ?? x,
      (x: EditorState) => down(x) ?? x,
      (x: EditorState) => up(x, 4) ?? x,
      (x: EditorState) => down(x, 4) ?? x,
    ];
    for (let run = 0; run < 200; run++) {
      let state = fromText("");
      for (let step = 0; step < 60; step++) {
        if (next() < 0.5) {
          const piece = pieces[Math.floor(next() * pieces.length)]!;
          state = insert(state, piece);
        } else {
          state = ops[Math.floor(next() * ops.length)]!(state);
        }
        expectOnBoundary(state);
        expect(state.value.isWellFormed()).toBe(true);
        expect(state.value).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
      }
    }
  });
});

describe("insert", () => {
  it("normalises pasted line endings", () => {
    expect(show(insert(fromText(""), "a\r\nb\rc"))).toBe("a\nb\nc|");
  });

  it("drops escape sequences and control characters, turns tabs into spaces", () => {
    expect(insert(fromText(""), "\x1b[31mred\x1b[0m\x07 \x1b]52;c;eA==\x07ok\tx").value).toBe(
      "red ok    x",
    );
    expect(insert(fromText(""), "a\u202Eb").value).toBe("ab");
  });

  it("inserts at the cursor and moves past the text", () => {
    expect(show(insert(s("ab|cd"), "XY"))).toBe("abXY|cd");
    expect(show(insert(s("|"), "👍🏽"))).toBe("👍🏽|");
  });

  it("keeps the cursor after a grapheme the insertion merged with", () => {
    // A skin tone typed before a lone modifier... and a base typed before a lone modifier.
    expect(show(insert(s("|🏽"), "👍"))).toBe("👍🏽|");
    expect(show(insert(s("e|"), "\u0301"))).toBe("e\u0301|");
  });

  it("returns the same state for nothing to insert", () => {
    const state = s("a|");
    expect(insert(state, "")).toBe(state);
    expect(insert(state, "\x1b[2J")).toBe(state);
  });
});

/** `edit` on each draft (the key, | the cursor) leaves the draft its value shows. */
function edits(edit: (state: EditorState) => EditorState, table: Record<string, string>) {
  for (const [before, after] of Object.entries(table))
    expect(show(edit(s(before))), before).toBe(after);
}

describe("word and line editing", () => {
  it("Ctrl+W deletes back to the previous whitespace-delimited word start", () => {
    edits(deleteWordBefore, { "foo bar|": "foo |", "foo bar  |": "foo |", "foo ba|r": "foo |r" });
    edits(deleteWordBefore, { "x http://a.b/c|": "x |", "hi 👍🏽👍🏽|": "hi |" });
    edits(deleteWordBefore, { "foo\n|": "|", "|foo": "|foo" });
  });

  it("Alt+D deletes to the end of the next word", () => {
    edits(deleteWordAfter, { "|foo bar": "| bar", "foo| bar": "foo|" });
  });

  it("Ctrl+U deletes to the start of the line, or the newline before it", () => {
    edits(deleteToLineStart, { "ab\ncd|ef": "ab\n|ef", "ab\n|ef": "ab|ef" });
    const start = s("|ab");
    expect(deleteToLineStart(start)).toBe(start);
  });

  it("Ctrl+K deletes to the end of the line, or the newline after it", () => {
    edits(deleteToLineEnd, { "ab|cd\nef": "ab|\nef", "ab|\nef": "ab|ef" });
    const stop = s("ab|");
    expect(deleteToLineEnd(stop)).toBe(stop);
  });

  it("Home / End go to the current line's edges, then to the draft's", () => {
    edits(home, { "ab\ncd|ef": "ab\n|cdef", "ab\n|cdef": "|ab\ncdef" });
    edits(end, { "ab|cd\nef": "abcd|\nef", "abcd|\nef": "abcd\nef|" });
  });

  it("Alt+arrows move by words, emoji and CJK included", () => {
    edits(wordLeft, { "foo bar|": "foo |bar", "foo ba|r": "foo |bar", "foo |bar": "|foo bar" });
    edits(wordLeft, { "foo, bar!|": "foo, |bar!", "hi 👍🏽 |": "hi |👍🏽 ", "   |": "|   " });
    edits(wordRight, { "|foo bar": "foo| bar", "foo| bar": "foo bar|", "f|oo": "foo|" });
    edits(wordRight, { "|   ": "   |" });
  });
});

describe("up and down", () => {
  it("move between lines keeping the display column, null at the edges", () => {
    expect(up(s("ab|c"))).toBeNull();
    expect(down(s("ab|c"))).toBeNull();
    expect(show(up(s("abc\nde|f"))!)).toBe("ab|c\ndef");
    expect(show(up(s("a\nlong|er"))!)).toBe("a|\nlonger");
    expect(show(down(s("ab|c\nd"))!)).toBe("abc\nd|");
    expect(down(s("abc\nd|"))).toBeNull();
    // Columns are display columns: two columns in is after the first CJK character.
    expect(show(down(s("ab|\n你好"))!)).toBe("ab\n你|好");
    expect(show(up(s("\n|"))!)).toBe("|\n");
  });

  it("with a width, move by wrapped rows", () => {
    // "hello world" at width 5 is drawn as "hello", " ", "world".
    expect(show(up(s("hello world|"), 5)!)).toBe("hello |world");
    expect(show(up(s("hello wor|ld"), 5)!)).toBe("hello| world");
    expect(up(s("hel|lo world"), 5)).toBeNull();
    expect(show(down(s("hel|lo world"), 5)!)).toBe("hello| world");
    expect(show(down(s("he|llo world"), 6)!)).toBe("hello wo|rld");
  });
});

describe("layoutDraft", () => {
  /** A draft's layout: its rows, and the cursor's row and column. */
  const laidOut = (lines: string[], cursorLine: number, cursorColumn: number) => ({
    lines,
    cursorLine,
    cursorColumn,
  });

  it("places the cursor on an empty draft", () => {
    expect(layoutDraft(fromText(""), 10)).toEqual(laidOut([""], 0, 0));
  });

  it("puts the cursor after a full line on a new row", () => {
    expect(layoutDraft(s("hello|"), 5)).toEqual(laidOut(["hello", ""], 1, 0));
    expect(layoutDraft(s("hell|"), 5)).toEqual(laidOut(["hell"], 0, 4));
  });

  it("puts the cursor after a trailing newline on the empty last line", () => {
    expect(layoutDraft(s("abc\n|"), 10)).toEqual(laidOut(["abc", ""], 1, 0));
    expect(layoutDraft(s("abc|\n"), 10)).toEqual(laidOut(["abc", ""], 0, 3));
  });

  it("wraps words and puts a cursor at a wrap on the next row", () => {
    const text = "one two three";
    const at = (cursor: number) => layoutDraft({ value: text, cursor }, 8);
    expect(at(0).lines).toEqual(["one two ", "three"]);
    expect(at(8)).toMatchObject({ cursorLine: 1, cursorColumn: 0 });
    expect(at(7)).toMatchObject({ cursorLine: 0, cursorColumn: 7 });
    expect(at(13)).toMatchObject({ cursorLine: 1, cursorColumn: 5 });
  });

  it("counts display columns for wide graphemes", () => {
    expect(layoutDraft(s("你好|世界"), 10)).toMatchObject({ cursorLine: 0, cursorColumn: 4 });
    // 👨‍👩‍👧 is drawn as its parts where the terminal does not cluster (the default).
    expect(layoutDraft(s("👍🏽👨‍👩‍👧|x"), 10)).toMatchObject({ cursorColumn: 8 });
    expect(layoutDraft(s("你好世|界"), 5)).toEqual(laidOut(["你好", "世界"], 1, 2));
  });

  it("maps every cursor position to its own cell inside the width (random)", () => {
    const next = random(5);
    const pieces = ["a", "b", " ", "  ", "\n", "你", "👍🏽", "👨‍👩‍👧", "🇺🇸", "e\u0301", "word"];
    for (let run = 0; run < 300; run++) {
      let value = "";
      const parts = Math.floor(next() * 20);
      for (let i = 0; i < parts; i++) value += pieces[Math.floor(next() * pieces.length)];
      // 👨‍👩‍👧 is one 6-column grapheme to the editor where the terminal does not cluster.
      const width = 6 + Math.floor(next() * 10);
      const cells = new Set<string>();
      let lines: string[] | undefined;
      for (const cursor of boundaries(value)) {
        const layout = layoutDraft({ value, cursor }, width);
        lines ??= layout.lines;
        expect(layout.lines).toEqual(lines);
        expect(layout.cursorColumn).toBeLessThan(width);
        const line = layout.lines[layout.cursorLine]!;
        expect(displayWidth(line)).toBeLessThanOrEqual(width);
        const cell = `${layout.cursorLine}:${layout.cursorColumn}`;
        expect(cells.has(cell)).toBe(false);
        cells.add(cell);
      }
      for (const line of lines ?? []) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      // Lines are the text with only the newlines taken out.
      expect((lines ?? []).join("")).toBe(value.replaceAll("\n", ""));
    }
  });
});

describe("fromText and clear", () => {
  it("starts at the end of a sanitised text", () => {
    expect(fromText("hi\r\nthere\x1b[2J")).toEqual({ value: "hi\nthere", cursor: 8 });
    expect(clear(s("ab|c"))).toEqual({ value: "", cursor: 0 });
  });
});

describe("applyKey with Ink keys", () => {
  it("does not type the letter of a Ctrl combination", () => {
    const state = s("ab\ncd|");
    expect(applyKey(state, "a", key({ ctrl: true }))).toEqual({
      state: s("ab\n|cd"),
      handled: true,
    });
    const other = applyKey(state, "g", key({ ctrl: true }));
    expect(other).toEqual({ state, handled: false });
    expect(applyKey(state, "x", key({ meta: true }))).toEqual({ state, handled: false });
  });

  it("maps the editing keys", () => {
    const cases: [string, string, Partial<Key>, string][] = [
      ["ab👍🏽|", "", { backspace: true }, "ab|"],
      ["a|👍🏽b", "", { delete: true }, "a|b"],
      ["foo bar|", "", { backspace: true, meta: true }, "foo |"],
      ["|foo bar", "", { delete: true, ctrl: true }, "| bar"],
      ["a👍🏽|", "", { leftArrow: true }, "a|👍🏽"],
      ["a|👍🏽", "", { rightArrow: true }, "a👍🏽|"],
      ["foo bar|", "", { leftArrow: true, meta: true }, "foo |bar"],
      ["foo bar|", "", { leftArrow: true, ctrl: true }, "foo |bar"],
      ["|foo bar", "", { rightArrow: true, meta: true }, "foo| bar"],
      ["foo bar|", "b", { meta: true }, "foo |bar"],
      ["|foo bar", "f", { meta: true }, "foo| bar"],
      ["|foo bar", "d", { meta: true }, "| bar"],
      ["x\nab|c", "", { home: true }, "x\n|abc"],
      ["x\na|bc", "", { end: true }, "x\nabc|"],
      ["x\nab|c", "e", { ctrl: true }, "x\nabc|"],
      ["ab|c", "b", { ctrl: true }, "a|bc"],
      ["ab|c", "f", { ctrl: true }, "abc|"],
      ["ab|c", "d", { ctrl: true }, "ab|"],
      ["ab|c", "h", { ctrl: true }, "a|c"],
      ["foo bar|", "w", { ctrl: true }, "foo |"],
      ["foo bar|", "u", { ctrl: true }, "|"],
      ["foo| bar", "k", { ctrl: true }, "foo|"],
      ["a\nb|", "", { upArrow: true }, "a|\nb"],
      ["a|\nb", "", { downArrow: true }, "a\nb|"],
      ["a|", "B", { shift: true }, "aB|"],
      ["a|", "👍🏽", {}, "a👍🏽|"],
      ["|", "x\r\ny", {}, "x\ny|"],
    ];
    for (const [before, input, flags, after] of cases) {
      const result = applyKey(s(before), input, key(flags));
      expect({ flags, input, state: show(result.state) }).toEqual({ flags, input, state: after });
      expect(result.handled).toBe(true);
    }
  });

  it("leaves the composer's keys alone", () => {
    const state = s("a\nb|");
    for (const flags of [
      { return: true },
      { return: true, meta: true },
      { escape: true },
      { tab: true },
      { tab: true, shift: true },
      { pageUp: true },
      { pageDown: true },
    ]) {
      expect(applyKey(state, "", key(flags))).toEqual({ state, handled: false });
    }
    expect(applyKey(s("|ab"), "", key({ upArrow: true })).handled).toBe(false);
    expect(applyKey(s("ab|"), "", key({ downArrow: true })).handled).toBe(false);
    expect(applyKey(fromText(""), "d", key({ ctrl: true })).handled).toBe(false);
    expect(applyKey(state, "", key()).handled).toBe(false);
  });

  it("moves by wrapped rows when given the width", () => {
    const state = s("hello wor|ld");
    expect(applyKey(state, "", key({ upArrow: true })).handled).toBe(false);
    expect(show(applyKey(state, "", key({ upArrow: true }), { width: 5 }).state)).toBe(
      "hello| world",
    );
  });

  it("swallows kitty key releases", () => {
    const state = s("a|");
    expect(applyKey(state, "a", key({ eventType: "release" }))).toEqual({ state, handled: true });
  });

  it("applies a run of control bytes that arrived in one read", () => {
    expect(show(applyKey(s("foo bar baz|"), "\x17\x17", key()).state)).toBe("foo |");
  });
});

/** Feeds Ink's useInput / usePaste events to the handlers, as the composer does. */
function Probe(props: {
  onInput: (input: string, key: Key) => void;
  onPaste: (text: string) => void;
}) {
  useInput(props.onInput);
  usePaste(props.onPaste);
  return createElement(Text, null, "probe");
}

describe("applyKey behind a real Ink 8 useInput", () => {
  let unmount: (() => void) | undefined;
  afterEach(() => unmount?.());

  async function drive(start: EditorState, bytes: string) {
    let state = start;
    const events: { input: string; key: Key; handled: boolean }[] = [];
    const pastes: string[] = [];
    const onInput = (input: string, k: Key) => {
      const result = applyKey(state, input, k);
      events.push({ input, key: k, handled: result.handled });
      state = result.state;
    };
    const onPaste = (text: string) => {
      pastes.push(text);
      state = insert(state, text);
    };
    const app = render(createElement(Probe, { onInput, onPaste }));
    unmount = app.unmount;
    await pause(20); // Ink's input listener is attached in an effect after the first render
    app.stdin.write(bytes);
    await pause(40); // past Ink's 20 ms wait for the rest of an escape sequence
    const flags = (k: Key) =>
      Object.entries(k)
        .filter(([name, v]) => v === true && name !== "eventType")
        .map(([name]) => name)
        .sort();
    return {
      state: show(state),
      events: events.map((e) => ({ input: e.input, key: flags(e.key), handled: e.handled })),
      pastes,
    };
  }

  const table: [string, string, string, string[], string, string][] = [
    // bytes, what it is, Ink's input, Ink's key flags, draft before, draft after
    ["\x7f", "Backspace (most terminals)", "", ["backspace"], "ab👍🏽|", "ab|"],
    ["\x08", "Backspace (some terminals), Ctrl+H", "", ["backspace"], "ab👍🏽|", "ab|"],
    ["\x1b[3~", "Delete", "", ["delete"], "a|👍🏽b", "a|b"],
    ["\x1b[H", "Home (xterm)", "", ["home"], "x\nab|c", "x\n|abc"],
    ["\x1b[F", "End (xterm)", "", ["end"], "x\na|bc", "x\nabc|"],
    ["\x1b[1~", "Home (vt220)", "", ["home"], "x\nab|c", "x\n|abc"],
    ["\x1b[4~", "End (vt220)", "", ["end"], "x\na|bc", "x\nabc|"],
    ["\x01", "Ctrl+A", "a", ["ctrl"], "x\nab|c", "x\n|abc"],
    ["\x05", "Ctrl+E", "e", ["ctrl"], "x\na|bc", "x\nabc|"],
    ["\x17", "Ctrl+W", "w", ["ctrl"], "foo bar|", "foo |"],
    ["\x15", "Ctrl+U", "u", ["ctrl"], "a\nfoo ba|r", "a\n|r"],
    ["\x0b", "Ctrl+K", "k", ["ctrl"], "a\nfoo| bar\nz", "a\nfoo|\nz"],
    ["\x1bb", "Alt+B", "b", ["meta"], "foo bar|", "foo |bar"],
    ["\x1bf", "Alt+F", "f", ["meta"], "|foo bar", "foo| bar"],
    ["\x1b[1;3D", "Alt+Left", "", ["leftArrow", "meta"], "foo bar|", "foo |bar"],
    ["\x1b[1;3C", "Alt+Right", "", ["meta", "rightArrow"], "|foo bar", "foo| bar"],
    ["\x1b\x7f", "Alt+Backspace", "", ["backspace", "meta"], "foo bar|", "foo |"],
    ["\x17\x17", "Ctrl+W twice in one read", "\x17\x17", [], "a b c|", "a |"],
  ];

  for (const [bytes, name, input, flags, before, after] of table) {
    it(`${name}: ${JSON.stringify(bytes)}`, async () => {
      const result = await drive(s(before), bytes);
      expect(result.events).toEqual([{ input, key: flags, handled: true }]);
      expect(result.state).toBe(after);
    });
  }

  it("a bracketed paste goes to usePaste, not useInput, and is normalised", async () => {
    const result = await drive(s("|"), "\x1b[200~a\r\nb\x1b[201~");
    expect(result.events).toEqual([]);
    expect(result.pastes).toEqual(["a\r\nb"]);
    expect(result.state).toBe("a\nb|");
  });

  it("Enter is reported as return and left to the composer", async () => {
    const result = await drive(s("hi|"), "\r");
    expect(result.events).toEqual([{ input: "\r", key: ["return"], handled: false }]);
    expect(result.state).toBe("hi|");
  });
});
