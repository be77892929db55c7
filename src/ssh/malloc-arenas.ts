// glibc's malloc gives each thread that allocates an arena of its own, up to eight per
// core, and keeps what is freed in them for reuse. With worker threads drawing sessions,
// `parley ssh` stayed about 30 % over its idle size after twenty sessions had left, and
// each added session cost some 5 MiB; with two arenas, 13 to 18 % 6 s after they left and
// 4.3 to 4.5 MiB, the keystroke latency the same (npm run bench, four runs of each). A
// fixed trim threshold (glibc's default value, 128 KiB, but set: that stops glibc raising
// it, and its mmap threshold, after the first large block is freed) lets it hand back
// more: once the idle workers had been replaced, 14 to 20 % over (mean 17) against 17 to
// 25 % (mean 20) with two arenas alone, in five later alternating runs of each, the
// latency no worse.
// glibc reads these when a process starts, so `parley ssh` starts itself again with them,
// in place (execve: the same process id, nothing spawned, nothing written yet). If
// whoever runs parley set either, both are left as they are; another C library ignores
// them.

/** What `parley ssh` asks of glibc's malloc, unless one of them is set already. */
export const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: "2", MALLOC_TRIM_THRESHOLD_: "131072" };

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

/** Restarts this process with MALLOC_SETTINGS, on Linux, if none is set; else returns. */
export function withMallocSettings(
  env: NodeJS.ProcessEnv = process.env,
  execve: Execve | undefined = process.execve?.bind(process),
  commandLine: () => string[] = ownCommandLine,
): void {
  if (process.platform !== "linux" || !execve) return;
  if (Object.keys(MALLOC_SETTINGS).some((name) => env[name] !== undefined)) return;
  execve(process.execPath, commandLine(), { ...env, ...MALLOC_SETTINGS });
}
