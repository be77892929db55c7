// Which Node runs parley, checked before anything else loads: on an older one parley
// would fail deep inside (node:sqlite, DatabaseSync#isTransaction) with a stack trace.
// No imports, so that this links and runs on any Node.

/** node:sqlite without a flag came in 22.13, DatabaseSync#isTransaction in 22.16. */
export const MINIMUM_NODE = [22, 16] as const;

/** The one line refusing `version` (e.g. "20.20.2"), or undefined if it is new enough. */
export function nodeRefusal(version: string, execPath: string): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [needMajor, needMinor] = MINIMUM_NODE;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `parley: needs Node.js ${needMajor}.${needMinor} or newer (24 recommended); this is v${version} (${execPath}). Run it with a newer Node at once: npx -y -p node@24 -p parley-chat parley, or install one: nvm install 24.`;
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
