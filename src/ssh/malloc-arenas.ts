// glibc's malloc gives each thread that allocates an arena of its own, up to eight per
// core, and keeps what is freed in them for reuse. With worker threads drawing sessions,
// `parley ssh` stayed about 30 % over its idle size after twenty sessions had left, and
// each added session cost some 5 MiB; with two arenas, 13 to 18 % and 4.3 to 4.5 MiB, the
// keystroke latency the same (npm run bench, four runs of each). glibc reads the setting
// when a process starts, so `parley ssh` starts itself again with it, in place
// (execve: the same process id, nothing spawned, nothing written yet). One set by whoever
// runs parley is left alone, and another C library ignores it.

/** The arenas `parley ssh` asks glibc for, unless MALLOC_ARENA_MAX is set already. */
export const MALLOC_ARENAS = "2";

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => void;

/** Whether this is parley's single executable (npm run dist), whose argv[1] is itself again. */
function inSingleExecutable(): boolean {
  try {
    return (process.getBuiltinModule("node:sea") as { isSea(): boolean }).isSea();
  } catch {
    return false;
  }
}

/**
 * The command line that started this process: node, its options, the script and the
 * arguments; a single executable's own options come from within it, and its argv[1] is
 * not on its command line.
 */
export function ownCommandLine(sea = inSingleExecutable()): string[] {
  const args = process.argv.slice(2);
  return sea
    ? [process.execPath, ...args]
    : [process.execPath, ...process.execArgv, process.argv[1]!, ...args];
}

/** Restarts this process with MALLOC_ARENA_MAX set, on Linux, if it is not; else returns. */
export function withFewMallocArenas(
  env: NodeJS.ProcessEnv = process.env,
  execve: Execve | undefined = process.execve?.bind(process),
  commandLine: () => string[] = ownCommandLine,
): void {
  if (process.platform !== "linux" || env.MALLOC_ARENA_MAX !== undefined || !execve) return;
  execve(process.execPath, commandLine(), { ...env, MALLOC_ARENA_MAX: MALLOC_ARENAS });
}
