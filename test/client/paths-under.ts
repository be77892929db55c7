// parley's folders (config, data, state, cache) under one folder of a test's own.
import { join } from "node:path";
import type { Paths } from "../../src/config.ts";

export function pathsUnder(root: string): Paths {
  return {
    config: join(root, "config"),
    data: join(root, "data"),
    state: join(root, "state"),
    cache: join(root, "cache"),
    configFile: join(root, "config", "config.json"),
  };
}
