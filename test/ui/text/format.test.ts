import { describe, expect, it } from "vitest";
import {
  clockTime,
  dayLabel,
  fileKind,
  formatBytes,
  relativeTime,
} from "../../../src/ui/text/format.ts";

const at = (...parts: [number, number, number, number?, number?]) => {
  const [y, m, d, h = 12, min = 0] = parts;
  return new Date(y, m - 1, d, h, min).getTime() / 1000;
};

describe("relativeTime", () => {
  const now = at(2026, 11, 20, 15, 30);
  it("is compact", () => {
    expect(relativeTime(now, now)).toBe("now");
    expect(relativeTime(now - 59, now)).toBe("now");
    expect(relativeTime(now + 300, now)).toBe("now");
    expect(relativeTime(now - 120, now)).toBe("2m");
    expect(relativeTime(now - 5 * 3600, now)).toBe("5h");
    expect(relativeTime(now - 3 * 86400, now)).toBe("3d");
    expect(relativeTime(now - 6 * 86400, now)).toBe("6d");
  });
  it("falls back to a short date, with the year only when it differs", () => {
    expect(relativeTime(at(2026, 11, 3), now)).toBe("Nov 3");
    expect(relativeTime(at(2025, 11, 3), now)).toBe("Nov 3 2025");
  });
  it("gives an empty label for nonsense", () => {
    expect(relativeTime(Number.NaN, now)).toBe("");
  });
});

describe("clockTime and dayLabel", () => {
  it("shows a local 24-hour time", () => {
    expect(clockTime(at(2026, 11, 3, 10, 2))).toBe("10:02");
    expect(clockTime(at(2026, 11, 3, 9, 5))).toBe("09:05");
    expect(clockTime(at(2026, 11, 3, 23, 59))).toBe("23:59");
  });

  it("labels days by the local calendar", () => {
    const now = at(2026, 11, 20, 0, 30); // a Friday, just after midnight
    expect(dayLabel(at(2026, 11, 20, 0, 10), now)).toBe("Today");
    expect(dayLabel(at(2026, 11, 19, 23, 50), now)).toBe("Yesterday");
    expect(dayLabel(at(2026, 11, 17, 8), now)).toBe("Tuesday");
    expect(dayLabel(at(2026, 11, 14, 8), now)).toBe("Saturday");
    expect(dayLabel(at(2026, 11, 13, 8), now)).toBe("Fri 13 Nov 2026");
    expect(dayLabel(at(2025, 11, 3, 8), now)).toBe("Mon 3 Nov 2025");
  });
});

describe("formatBytes", () => {
  it("is short and human", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KB");
    expect(formatBytes(1229)).toBe("1.2 KB");
    expect(formatBytes(15 * 1024)).toBe("15 KB");
    expect(formatBytes(3.4 * 1024 * 1024)).toBe("3.4 MB");
    expect(formatBytes(1024 * 1024 - 1)).toBe("1.0 MB");
    expect(formatBytes(2.5 * 1024 ** 3)).toBe("2.5 GB");
  });
  it("does not make up sizes for nonsense", () => {
    expect(formatBytes(-1)).toBe("0 B");
    expect(formatBytes(Number.NaN)).toBe("0 B");
  });
});

describe("fileKind", () => {
  it("names a file's kind from its MIME type, else its extension", () => {
    expect(fileKind("application/pdf", "budget-q3.pdf")).toBe("PDF");
    expect(fileKind("image/png", null)).toBe("PNG");
    expect(fileKind("image/svg+xml", "logo")).toBe("SVG");
    expect(fileKind("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")).toBe(
      "XLSX",
    );
    expect(fileKind("application/octet-stream", "dump.tar.gz")).toBe("GZ");
    expect(fileKind(null, "notes.md")).toBe("MD");
    expect(fileKind("", "README")).toBe("");
    expect(fileKind("application/x-very-long-vendor-type", "a.bin")).toBe("BIN");
  });
});
