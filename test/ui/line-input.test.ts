// The one-line prompts' editing model: the composer's, by grapheme, on one line, and the
// window of it that shows, with the cursor always on screen.
import { describe, expect, it } from "vitest";
import type { EditorState } from "../../src/ui/composer/editor.ts";
import {
  applyLineKey,
  isTextThenEnter,
  lineState,
  lineView,
  pasteLine,
} from "../../src/ui/composer/line-editor.ts";
import { key } from "./ink-key.ts";

const at = (value: string, cursor = value.length): EditorState => ({ value, cursor });

describe("applyLineKey", () => {
  it("deletes a whole grapheme with Backspace", () => {
    const { state } = applyLineKey(at("bo👍🏽"), "", key({ backspace: true }));
    expect(state).toEqual(at("bo"));
  });

  it("takes the composer's editing keys, never typing their letters", () => {
    const home = applyLineKey(at("abc"), "a", key({ ctrl: true }));
    expect(home).toEqual({ state: at("abc", 0), handled: true });
    expect(applyLineKey(at("abc def", 4), "u", key({ ctrl: true })).state).toEqual(at("def", 0));
    expect(applyLineKey(at("abc def"), "w", key({ ctrl: true })).state).toEqual(at("abc "));
    expect(applyLineKey(at("abc def", 3), "k", key({ ctrl: true })).state).toEqual(at("abc"));
    expect(applyLineKey(at("abc", 0), "e", key({ ctrl: true })).state).toEqual(at("abc"));
    expect(applyLineKey(at("ab cd"), "", key({ leftArrow: true, meta: true })).state).toEqual(
      at("ab cd", 3),
    );
  });

  it("leaves ↑ ↓, Enter, Esc, Tab and Ctrl+J to the prompt", () => {
    for (const flags of [{ upArrow: true }, { downArrow: true }, { return: true }]) {
      expect(applyLineKey(at("x"), "", key(flags)).handled).toBe(false);
    }
    expect(applyLineKey(at("x"), "", key({ escape: true })).handled).toBe(false);
    expect(applyLineKey(at("x"), "\t", key({ tab: true })).handled).toBe(false);
    expect(applyLineKey(at("x"), "\n", key()).handled).toBe(false);
  });

  it("keeps to one line: line breaks in typed or pasted text become spaces", () => {
    expect(applyLineKey(at(""), "a\nb", key()).state).toEqual(at("a b"));
    expect(pasteLine(at("x"), "1\r\n2")).toEqual(at("x1 2"));
    expect(lineState("one\ntwo")).toEqual(at("one two"));
  });
});

describe("isTextThenEnter", () => {
  it("is typed text and Enter in one read, not Enter itself", () => {
    expect(isTextThenEnter("des\r", key())).toBe(true);
    expect(isTextThenEnter("\r", key({ return: true }))).toBe(false);
    expect(isTextThenEnter("des", key())).toBe(false);
  });
});

describe("lineView", () => {
  it("shows everything that fits, the cursor's cell split out", () => {
    expect(lineView(at("hello", 1), 20)).toEqual({ before: "h", under: "e", after: "llo" });
    expect(lineView(at("hello"), 20)).toEqual({ before: "hello", under: "", after: "" });
  });

  it("scrolls to keep the cursor on screen, by whole graphemes", () => {
    expect(lineView(at("abcdefghij"), 5)).toEqual({ before: "ghij", under: "", after: "" });
    expect(lineView(at("abcdefghij", 0), 5)).toEqual({ before: "", under: "a", after: "bcde" });
    const wide = lineView(at("日本語のテキスト"), 7);
    expect(wide.before).toBe("キスト");
  });
});
