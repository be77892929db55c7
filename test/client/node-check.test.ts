// The Node gate's one line: refused below 22.16, and a hint a shell runs as printed.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { nodeRefusal } from "../../src/node-check.ts";

describe("nodeRefusal", () => {
  it("lets 22.16 and newer through", () => {
    for (const version of ["22.16.0", "22.20.1", "24.21.0", "26.0.0"]) {
      expect(nodeRefusal(version, "/usr/bin/node", "/x/cli.js")).toBeUndefined();
    }
  });

  it("refuses older ones with the same file run by a Node 24 from the registry", () => {
    for (const version of ["18.19.1", "20.20.2", "22.15.0"]) {
      expect(
        nodeRefusal(version, "/usr/bin/node", "/p/lib/node_modules/parley-chat/dist/cli.js"),
      ).toBe(
        `parley: needs Node.js 22.16 or newer (24 recommended); this is v${version} (/usr/bin/node). ` +
          "Run it with a Node 24 fetched from the npm registry: npx -y node@24 /p/lib/node_modules/parley-chat/dist/cli.js",
      );
    }
  });

  it("quotes a path a shell would split, and prints no control characters", () => {
    const path = "/home/o'neil/my apps/\u001b[31mparley";
    const line = nodeRefusal("20.20.2", "/opt/node\u0007/bin/node", path)!;
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toContain("(/opt/node?/bin/node)");
    const word = line.replace(/^.*npx -y node@24 /, "");
    const echoed = spawnSync("bash", ["-c", `printf %s ${word}`], { encoding: "utf8" });
    expect(echoed.stdout).toBe("/home/o'neil/my apps/?[31mparley");
  });
});
