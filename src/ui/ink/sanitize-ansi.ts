// Ink sanitises every text node's squashed text on every frame (squash-text-nodes.js), and
// for styled text that means tokenising it; the same texts come back frame after frame, so
// the results are remembered. Stands in for Ink's sanitize-ansi.js (scripts/ink-plugin.ts).
import sanitizeAnsi from "ink-original/sanitize-ansi.js";
import { remembered } from "./remembered.ts";

const cachedSanitizeAnsi = remembered(sanitizeAnsi);
export default cachedSanitizeAnsi;
