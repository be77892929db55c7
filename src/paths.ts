// Where parley keeps things: config, data, state and cache folders. Apart from
// src/config.ts (and its schema library) so that a start can know them before loading it.
import { isAbsolute, join } from "node:path";
import envPaths from "env-paths";

export type Paths = {
  config: string;
  data: string;
  state: string;
  cache: string;
  configFile: string;
};

/**
 * The same folders on every platform: $XDG_CONFIG_HOME/parley, $XDG_DATA_HOME/parley,
 * $XDG_STATE_HOME/parley and $XDG_CACHE_HOME/parley wherever those are set (an absolute
 * path, as the XDG spec says). Unset, each falls back to the platform's usual place
 * (env-paths): on Linux ~/.config, ~/.local/share, ~/.local/state, ~/.cache; on macOS
 * ~/Library/Preferences, Application Support, Logs and Caches (docs/using.md, --help).
 */
export function parleyPaths(env: NodeJS.ProcessEnv = process.env): Paths {
  const p = envPaths("parley", { suffix: "" });
  const xdg = (name: string, otherwise: string) => {
    const base = env[name];
    return base && isAbsolute(base) ? join(base, "parley") : otherwise;
  };
  const config = xdg("XDG_CONFIG_HOME", p.config);
  return {
    config,
    data: xdg("XDG_DATA_HOME", p.data),
    state: xdg("XDG_STATE_HOME", p.log),
    cache: xdg("XDG_CACHE_HOME", p.cache),
    configFile: join(config, "config.json"),
  };
}
