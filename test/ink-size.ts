// ink-testing-library's stdout has columns but no rows, so Ink asks `terminal-size` for the
// terminal's size at every frame, and it spawns `tput` twice each time: a third of the UI
// tests' CPU went to those processes. A test's terminal has no size of its own to find;
// it gets Ink's own fallback, 80x24, at once.
import { vi } from "vitest";

vi.mock("terminal-size", () => ({ default: () => ({ columns: 80, rows: 24 }) }));
