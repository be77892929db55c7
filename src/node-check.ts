// Which Node runs parley, checked before anything else loads: on an older one parley
// would fail deep inside (node:sqlite, DatabaseSync#isTransaction) with a stack trace.
// No imports, so that this links and runs on any Node.

/** node:sqlite without a flag came in 22.13, DatabaseSync#isTransaction in 22.16. */
export const MINIMUM_NODE = [22, 16] as const;

/**
 * The one line refusing `version` (e.g. "20.20.2"), or undefined if it is new enough.
 * `script` is the file Node was asked to run (process.argv[1]): the hint runs that same
 * file on a Node 24 fetched from the npm registry, which works wherever the reader is
 * (a clone, a global install from a tarball, a copied dist/).
 */
export function nodeRefusal(
  version: string,
  execPath: string,
  script?: string,
): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [needMajor, needMinor] = MINIMUM_NODE;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  const file = script ? shellWord(script) : "dist/cli.js";
  return `parley: needs Node.js ${needMajor}.${needMinor} or newer (24 recommended); this is v${printable(version)} (${printable(execPath)}). Run it with a Node 24 fetched from the npm registry: npx -y node@24 ${file}`;
}

/** Control characters never reach the terminal, whatever a path holds. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

/** `path` as one word a POSIX shell reads back unchanged (for a printable path). */
function shellWord(path: string): string {
  const text = printable(path);
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.split("'").join("'\\''")}'`;
}

/**
 * node:sqlite is stable enough for parley, but on Node 22 loading it prints an
 * ExperimentalWarning to stderr: the person at the terminal should not see it.
 * Every other warning goes through as before.
 */
export function hideSqliteWarning(proc: NodeJS.Process = process): void {
  const emit = proc.emitWarning.bind(proc) as (...args: unknown[]) => void;
  proc.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string })?.type;
    const name = typeof warning === "string" ? type : warning.name;
    if (name === "ExperimentalWarning" && /SQLite/i.test(text)) return;
    emit(warning, ...rest);
  }) as NodeJS.Process["emitWarning"];
}
