// Formatting: the short labels of times (in local time) and sizes that the panes show.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DAY = 86_400;

/**
 * Compact age for the sidebar: "now" (under a minute, or in the future), "2m", "5h", "3d"
 * (up to 6 days), then the local date "Nov 3", with the year when it is not this year's:
 * "Nov 3 2025". Not a number: "".
 */
export function relativeTime(unixSeconds: number, nowSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || !Number.isFinite(nowSeconds)) return "";
  const age = nowSeconds - unixSeconds;
  if (age < 60) return "now";
  if (age < 3600) return `${Math.floor(age / 60)}m`;
  if (age < DAY) return `${Math.floor(age / 3600)}h`;
  if (age < 7 * DAY) return `${Math.floor(age / DAY)}d`;
  const date = new Date(unixSeconds * 1000);
  const label = `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return date.getFullYear() === new Date(nowSeconds * 1000).getFullYear()
    ? label
    : `${label} ${date.getFullYear()}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Local 24-hour clock time, "09:05". Not a number: "". */
export function clockTime(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds)) return "";
  const date = new Date(unixSeconds * 1000);
  return `${two(date.getHours())}:${two(date.getMinutes())}`;
}

/**
 * Day heading for the message list, by local calendar day: "Today", "Yesterday", the weekday
 * ("Monday") for 2–6 days ago, else "Mon 3 Nov 2025" (also for days in the future).
 */
export function dayLabel(unixSeconds: number, nowSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || !Number.isFinite(nowSeconds)) return "";
  const date = new Date(unixSeconds * 1000);
  const now = new Date(nowSeconds * 1000);
  const dayOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  // Rounding absorbs 23- and 25-hour days around daylight-saving changes.
  const days = Math.round((dayOf(now) - dayOf(date)) / (DAY * 1000));
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  const weekday = WEEKDAYS[date.getDay()]!;
  if (days > 1 && days < 7) return weekday;
  return `${weekday.slice(0, 3)} ${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

const UNITS = ["B", "KB", "MB", "GB", "TB"];

/** "812 B", "1.2 KB", "34 MB" (1024-based; one decimal below 10). Invalid or negative: "0 B". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "0 B";
  if (n < 1024) return `${Math.round(n)} B`;
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  let shown = value < 9.95 ? value.toFixed(1) : String(Math.round(value));
  if (shown === "1024" && unit < UNITS.length - 1) {
    unit++;
    shown = "1.0";
  }
  return `${shown} ${UNITS[unit]}`;
}

// MIME subtypes whose name is not what a person calls the file.
const KINDS: Record<string, string> = {
  "vnd.openxmlformats-officedocument.wordprocessingml.document": "DOCX",
  "vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
  "vnd.openxmlformats-officedocument.presentationml.presentation": "PPTX",
  msword: "DOC",
  "vnd.ms-excel": "XLS",
  "vnd.ms-powerpoint": "PPT",
  plain: "TXT",
  jpeg: "JPEG",
  "svg+xml": "SVG",
  "x-zip-compressed": "ZIP",
  "octet-stream": "",
};

/**
 * What kind of file an attachment is, in a word: "PDF", "PNG", from its MIME type, else its
 * file name's extension; "" when neither says. Expects sanitised text.
 */
export function fileKind(fileType: string | null | undefined, filename?: string | null): string {
  const subtype = /^[a-z]+\/([\w.+-]+)/i.exec(fileType?.trim() ?? "")?.[1]?.toLowerCase();
  if (subtype !== undefined) {
    const known = KINDS[subtype];
    if (known !== undefined) {
      if (known !== "") return known;
    } else if (subtype.length <= 8) return subtype.replace(/^x-/, "").toUpperCase();
  }
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(filename ?? "")?.[1];
  return extension ? extension.toUpperCase() : "";
}
