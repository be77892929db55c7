// V8's code cache for parley's own bundle, made once the code has run. Node's compile
// cache (module.enableCompileCache) is made as each file is compiled, before it runs, so it
// holds only the code V8 compiles at once: every function called later (React's and Ink's
// first render, the server's first answers) was compiled again at each start, some 100 ms
// of a start without a kept screen (README, Start-up). Here dist/cli.js compiles each of
// the bundle's CommonJS files itself (vm.Script), and once the client has drawn its first
// frames, or at exit, keeps V8's cache of what they compiled for the next start.
//
// The cache is only read from a folder of this user's own that no one else can write
// (V8's cache is trusted code), keyed by V8's version and flags; a file whose cache V8
// refuses is compiled as usual and its cache made again.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { cachedDataVersionTag } from "node:v8";
import { Script } from "node:vm";

/** Where cli.ts finds the cache dist/cli.js made (a second copy of this module would not). */
export const CODE_CACHE = Symbol.for("parley.code-cache");

export type CodeCache = {
  /** Keeps the cache of each file whose cache was missing or refused. At most once. */
  save(): void;
  /** The folder it is kept in; undefined when it is off. */
  folder: string | undefined;
  /** Each file compiled so far, its cache file, and whether its kept cache was used. */
  loaded(): { file: string; kept: boolean }[];
};

/** In each folder: the path of the bundle its cache is for. */
const BUNDLE_FILE = "bundle";

/** When the cache is kept if nothing keeps it sooner (cli.ts does, for the client). */
const SAVE_AFTER_MS = 10_000;

type Compiled = { script: Script; file: string; kept: boolean };

type LoadedModule = {
  exports: unknown;
  require(id: string): unknown;
};
type Extensions = Record<string, (module: LoadedModule, filename: string) => void>;

/** FNV-1a: a short name for a bundle's path, without loading node:crypto. */
function pathName(path: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    hash ^= path.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/**
 * This user's own folder for the cache of the bundle in `bundle`, made if need be;
 * undefined if it cannot be trusted (or Node's compile cache is turned off).
 */
export function cacheFolder(
  env: NodeJS.ProcessEnv,
  bundle: string,
  base = tmpdir(),
): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const root = join(env.NODE_COMPILE_CACHE || base, `parley-code-${uid}`);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  } catch {
    // there already, or not possible: checked below either way
  }
  try {
    const stat = lstatSync(root);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
    // Per install: each tidies away only its own earlier builds' files.
    const folder = join(root, `${cachedDataVersionTag()}-${pathName(bundle)}`);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // Which bundle it is for: the folder goes once that bundle has (src/code-cache.ts).
    const owner = join(folder, BUNDLE_FILE);
    if (!existsSync(owner)) writeFileSync(owner, bundle, { mode: 0o600 });
    return folder;
  } catch {
    return undefined;
  }
}

/**
 * The cache file for a file of the bundle, named by the file and its size and time. V8
 * checks a cache against the length of its source, not its content: a rebuilt
 * parley.cjs (the same length, other chunks' names in it) would run the old code.
 */
function cacheName(filename: string): string {
  const { size, mtimeMs } = statSync(filename);
  return `${basename(filename)}.${size}-${Math.round(mtimeMs * 1000)}.cache`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Compiles the CommonJS files under `bundle` (`.cjs`) with the cache kept in `folder`, and
 * makes `save` keep what they compiled. Other files load as Node loads them.
 */
export function installCodeCache(bundle: string, folder: string | undefined): CodeCache {
  // Without a folder to keep it in, Node loads them, with its own compile cache.
  if (!folder) return { save() {}, folder, loaded: () => [] };
  const extensions = (Module as unknown as { _extensions: Extensions })._extensions;
  const compiled: Compiled[] = [];
  const tag = cachedDataVersionTag();
  const ours = bundle.endsWith(sep) ? bundle : bundle + sep;
  const nodeLoads = extensions[".cjs"] ?? extensions[".js"]!;
  extensions[".cjs"] = (module, filename) => {
    if (!filename.startsWith(ours)) return nodeLoads(module, filename);
    // A #! line is only allowed at the very start of a script, not in Module.wrap's.
    const source = readFileSync(filename, "utf8").replace(/^#!/, "//");
    const file = join(folder, cacheName(filename));
    const cachedData = readCache(file);
    const wrapped = (Module as unknown as { wrap(source: string): string }).wrap(source);
    const script = new Script(wrapped, { filename, cachedData });
    const kept = cachedData !== undefined && !script.cachedDataRejected;
    compiled.push({ script, file, kept });
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    const require = Module.createRequire(filename);
    run.call(module.exports, module.exports, require, module, filename, dirname(filename));
  };
  let saved = false;
  const save = () => {
    // Flags changed since start (the client's --expose-gc, src/client/heap-trim.ts) make a
    // cache V8 would refuse at the next start.
    if (saved || cachedDataVersionTag() !== tag) return;
    saved = true;
    for (const entry of compiled) {
      if (entry.kept) continue;
      try {
        const temporary = `${entry.file}.${process.pid}`;
        writeFileSync(temporary, entry.script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, entry.file);
      } catch {
        // a full disk costs the next start its cache, nothing more
      }
    }
    tidy(bundle, folder);
  };
  process.once("exit", save);
  // A server is seldom quit; by then what its start runs has run.
  setTimeout(save, SAVE_AFTER_MS).unref();
  const loaded = () => compiled.map(({ file, kept }) => ({ file, kept }));
  return { save, folder, loaded };
}

/**
 * Removes earlier builds' files (each name carries its content's hash) from this bundle's
 * folder, and the folders of bundles that are gone (a package installed in a temporary
 * folder, a build moved away).
 */
function tidy(bundle: string, folder: string): void {
  try {
    for (const name of readdirSync(folder)) {
      if (name === BUNDLE_FILE) continue;
      const source = name.replace(/\.[0-9]+-[0-9]+\.cache$/, "");
      const current = [join(bundle, source), join(bundle, "chunks", source)]
        .filter((path) => existsSync(path))
        .map(cacheName);
      if (!current.includes(name)) rmSync(join(folder, name), { force: true });
    }
    const root = dirname(folder);
    for (const name of readdirSync(root)) {
      const other = join(root, name);
      if (other === folder) continue;
      let owner: string | undefined;
      try {
        owner = readFileSync(join(other, BUNDLE_FILE), "utf8");
      } catch {
        // not a folder of this kind
      }
      if (owner === undefined || !existsSync(owner)) {
        rmSync(other, { recursive: true, force: true });
      }
    }
  } catch {
    // nothing to tidy
  }
}
