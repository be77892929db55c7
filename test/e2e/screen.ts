// Reads parley's screen (as tmux's capture-pane gives it: text, one line per row, no
// colours) back into what a person sees: the sidebar's rows, the open conversation's
// title and lines, the status bar. The tests assert on these, never on box-drawing
// characters.
//
//  ╭────────────────────────────────────╮╭──────────────────────────────────────────╮
//  │1 All 2 Pinned 3 Muted 4 Archived   ││bob 📌                                    │
//  │▸📌 bob                       2m ●2 ││   lunch today?                           │
//  │   I think we're ready if QA signs …││ …                                        │
//  ╰────────────────────────────────────╯╰──────────────────────────────────────────╯
//   ↑↓ move · Enter open · …                                                ● online

/** One conversation in the sidebar: its two lines read back. */
export type SidebarRow = {
  name: string;
  /** 📌 🔕 📦, as shown before the name. */
  icons: string;
  /** "now", "5m", "2h", "Nov 3", "new"… */
  time: string;
  /** The unread count (●N), 0 when none is shown. */
  unread: number;
  /** "●20+": more unread than the row knows of. */
  unreadMore: boolean;
  /** The second line, trimmed: "carol: new mockups…", "you: hi". */
  preview: string;
  /** ▸: the cursor is on it. */
  selected: boolean;
  /** • (or ▸ on the open one): it is the conversation shown on the right. */
  marker: "▸" | "•" | " ";
};

const BORDER = /[│║┃]/u;
const CORNER_OR_BORDER = /[│║┃╭╮╰╯┏┓┗┛]/u;

/** The lines of the screen, each split at the sidebar's right border: [left, right]. */
function columns(screen: string): { left: string; right: string }[] {
  return screen.split("\n").map((line) => {
    const first = line.search(CORNER_OR_BORDER);
    if (first !== 1 && first !== 0) return { left: "", right: line };
    // The sidebar's own right border is the next border character after its left one.
    const rest = line.slice(first + 1);
    const end = rest.search(CORNER_OR_BORDER);
    if (end < 0) return { left: rest, right: "" };
    return { left: rest.slice(0, end), right: rest.slice(end + 1) };
  });
}

const ROW = /^([▸• ])((?:📌|🔕|📦)*)\s?(\S+)\s+(.*?)\s*$/u;
const UNREAD = /\s*●(\d+)(\+?)$/u;

/** The sidebar's rows, top to bottom (only those on screen). */
export function sidebarRows(screen: string): SidebarRow[] {
  const left = columns(screen).map((c) => c.left);
  const rows: SidebarRow[] = [];
  for (let i = 0; i < left.length; i++) {
    const line = left[i]!;
    // A row's first line has a marker and a name; its second starts with three spaces.
    if (/^\d /.test(line) || line.startsWith("   ") || !line.trim()) continue;
    const match = ROW.exec(line);
    if (!match) continue;
    const [, marker, icons, name, right] = match as unknown as [
      string,
      SidebarRow["marker"],
      string,
      string,
      string,
    ];
    const unread = UNREAD.exec(right);
    const next = left[i + 1] ?? "";
    rows.push({
      name,
      icons,
      time: (unread ? right.slice(0, unread.index) : right).trim(),
      unread: unread ? Number(unread[1]) : 0,
      unreadMore: unread?.[2] === "+",
      preview: next.startsWith("   ") ? next.trim() : "",
      selected: marker === "▸",
      marker,
    });
    if (next.startsWith("   ")) i++;
  }
  return rows;
}

export function sidebarRow(screen: string, name: string): SidebarRow | undefined {
  return sidebarRows(screen).find((r) => r.name === name);
}

/** The right-hand panes: the open conversation (title and lines) and the composer. */
export type Conversation = {
  /** The first line: the conversation's name and its icons ("bob 📌"), "" when none is open. */
  title: string;
  /** Its name alone ("bob", "#design"). */
  name: string;
  /** Every line below the title, trimmed at the right (message bodies are indented). */
  lines: string[];
  /** The composer's line(s), trimmed. */
  composer: string;
};

/** The message pane and the composer, as the lines between their borders. */
export function openConversation(screen: string): Conversation {
  const right = columns(screen).map((c) => c.right);
  const panels: string[][] = [];
  let current: string[] | undefined;
  for (const line of right) {
    if (line.startsWith("╭") || line.startsWith("┏")) {
      current = [];
      continue;
    }
    if (line.startsWith("╰") || line.startsWith("┗")) {
      if (current) panels.push(current);
      current = undefined;
      continue;
    }
    if (current && BORDER.test(line[0] ?? "")) {
      const end = line.search(/[│║┃]\s*$/u);
      current.push(line.slice(1, end > 0 ? end : undefined).trimEnd());
    }
  }
  const [messages = [], composer = []] = panels;
  const title = (messages[0] ?? "").trim();
  return {
    title,
    name: title.split(/\s+/)[0] ?? "",
    lines: messages.slice(1),
    composer: composer.map((l) => l.trim()).join(" "),
  };
}

/** Whether the open conversation shows a message whose text is exactly `text`. */
export function showsMessage(screen: string, text: string): boolean {
  return openConversation(screen).lines.some((l) => l.trim() === text);
}

/** The last non-empty line. */
export function statusBar(screen: string): string {
  return (
    screen
      .split("\n")
      .filter((l) => l.trim())
      .at(-1) ?? ""
  );
}

export type ConnectionState = "online" | "offline" | "connecting" | "unauthorized" | "unknown";

export function connectionState(screen: string): ConnectionState {
  const bar = statusBar(screen);
  if (bar.endsWith("● online")) return "online";
  if (bar.endsWith("○ offline, retrying")) return "offline";
  if (bar.endsWith("connecting…")) return "connecting";
  if (bar.endsWith("✗ token rejected")) return "unauthorized";
  return "unknown";
}
