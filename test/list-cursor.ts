// The conversation list's cursor as a screen shows it, and moving it to a row by name, for
// the tests that drive a real terminal (tmux, ssh, a browser's xterm.js).

/** The selected row's name and icons, without its time, unread count or preview. */
export function selectedName(screen: string): string {
  const line = screen.split("\n").find((l) => /^[│║]▸/.test(l)) ?? "";
  const cell = line.slice(2).split(/[│║]/)[0] ?? "";
  return cell.replace(/\s{2,}.*$/, "").trim();
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether a row of the conversation list shows `name` (after its icons), not only some
 * other place on the screen: the status line's "Muted #team.", a pane's title or preview.
 */
export function listed(screen: string, name: string): boolean {
  const row = new RegExp(`^[│║][▸• ](?:[^\\s│║]+ )?${escaped(name)}(?:\\s|[│║])`, "u");
  return screen.split("\n").some((line) => row.test(line));
}

type Screen = {
  screen: () => string | Promise<string>;
  down: () => unknown;
  waitFor: (check: (screen: string) => boolean, what: string) => Promise<unknown>;
};

/**
 * Moves the cursor down, one row at a time, until the selected row is `name`. A move is
 * seen by the selected row's name changing, not its whole line: the line also changes on
 * its own (a new message, the minute's clock), and reading that as a move sent one `j`
 * too many, which then landed after the next key.
 */
export async function moveTo(ui: Screen, name: string): Promise<void> {
  const row = new RegExp(`^\\S*\\s*${escaped(name)}$`, "u");
  await ui.waitFor((s) => listed(s, name), `${name} in the list`);
  for (let i = 0; i < 20; i++) {
    const before = await settledSelection(ui);
    if (row.test(before)) return;
    await ui.down();
    await ui.waitFor((s) => selectedName(s) !== before, "the cursor to move");
  }
  throw new Error(`the cursor did not reach ${name}: on ${selectedName(await ui.screen())}`);
}

/**
 * The selected row's name once two reads 100 ms apart agree on one. A read taken while the
 * list still loads (no selection) or while a frame is half drawn named another row, and
 * the `j` sent for it landed once the list showed: on the row after the one wanted (a
 * browser's terminal in CI opened #design for bob).
 */
async function settledSelection(ui: Screen): Promise<string> {
  let last = selectedName(await ui.screen());
  for (let i = 0; i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = selectedName(await ui.screen());
    if (now !== "" && now === last) return now;
    last = now;
  }
  throw new Error(`no settled selection in 20 s: on "${last}"`);
}
