// Texts the Ink output tests draw in random frames (ink-output, ink-log-update): plain,
// empty and blank, styled with SGR, a link (OSC 8), wide characters, several lines.
export const ESC = "\x1b";

export const INK_TEXTS = [
  "plain text",
  "",
  " ",
  `${ESC}[31mred${ESC}[39m and ${ESC}[1mbold${ESC}[22m`,
  `${ESC}[7minverse over\ntwo lines${ESC}[27m`,
  `${ESC}[2m${ESC}[1mdim and bold${ESC}[22m then plain`,
  `${ESC}[44m${ESC}[37m white on blue ${ESC}[39m${ESC}[49m`,
  `${ESC}]8;;https://example.com${ESC}\\a link${ESC}]8;;${ESC}\\`,
  "漢字とかな wide",
  "╭──────╮\n│ box  │\n╰──────╯",
  "line one\nline two\n\nline four",
];
