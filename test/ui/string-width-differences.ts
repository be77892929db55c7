// Where parley's string-width (src/ui/ink/string-width.ts) and string-width disagree.
// By path: the bare name resolves to parley's copy here too (scripts/ink-plugin.ts).
import original from "../../node_modules/string-width/index.js";
import stringWidth from "../../src/ui/ink/string-width.ts";

/** The first ten inputs the two measure differently, each with both answers. */
export function differences(inputs: Iterable<string>): string[] {
  const wrong: string[] = [];
  for (const input of inputs) {
    if (stringWidth(input) !== original(input)) {
      wrong.push(`${JSON.stringify(input)}: ${stringWidth(input)}, not ${original(input)}`);
    }
    if (wrong.length >= 10) break;
  }
  return wrong;
}
