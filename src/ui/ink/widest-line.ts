// Ink measures every text node with widest-line on every frame (render-node-to-output.js);
// the same texts come back frame after frame, so their widths are remembered. Stands in for
// the widest-line package inside Ink (scripts/ink-plugin.ts).
import widestLine from "widest-line";
import { remembered } from "./remembered.ts";

const cachedWidestLine = remembered(widestLine);
export default cachedWidestLine;
