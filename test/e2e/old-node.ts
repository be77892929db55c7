// The machine's own Node when it is older than parley supports (CI's Debian has Node 20):
// what a person without a newer Node runs `parley` with. Undefined on a newer machine.
import { execFileSync } from "node:child_process";
import { MINIMUM_NODE } from "../../src/node-check.ts";

export const OLD_NODE = ["/usr/bin/node", "/usr/local/bin/node"].find((node) => {
  try {
    const [major = 0, minor = 0] = execFileSync(node, ["-p", "process.versions.node"], {
      encoding: "utf8",
    })
      .split(".")
      .map(Number);
    const [needMajor, needMinor] = MINIMUM_NODE;
    return major < needMajor || (major === needMajor && minor < needMinor);
  } catch {
    return false;
  }
});
