// Renders the client full-screen on the given streams: the real terminal, one SSH
// session's channel (which carries its own size and resize events), or a test's.

import type { QueryClient } from "@tanstack/react-query";
import { type Instance, render, type SuspendTerminal, type TerminalSuspension, useApp } from "ink";
import { type ReactNode, useLayoutEffect } from "react";
import { MOUSE_OFF, MOUSE_ON } from "../ui/keys/mouse.ts";
import type { ThemeSetting } from "../ui/look/theme.ts";
import { Root } from "../ui/root.tsx";
import { withMouseInput } from "./mouse-input.ts";
import type { ClientSession } from "./session.ts";

export type MountedClient = {
  instance: Instance;
  /** Ink's hand-over of the terminal (raw mode, alternate screen) and its full redraw after. */
  suspendTerminal(): Promise<TerminalSuspension>;
};

/** Hands Ink's suspendTerminal, which only a component can reach, to the code that mounts. */
function TerminalControl({
  onReady,
  children,
}: {
  onReady: (suspend: SuspendTerminal) => void;
  children: ReactNode;
}) {
  const { suspendTerminal } = useApp();
  useLayoutEffect(() => onReady(suspendTerminal), [onReady, suspendTerminal]);
  return children;
}

/**
 * Empties a finished client's cache for good. `clear()` alone left it to the timers: React
 * removes the last observers after the unmount (in its passive effects) and a fetch in
 * flight settles later, and each re-arms its query's 5-minute gc timer, which held the
 * query, its client and through them the session's whole cache and state (in `parley ssh`,
 * every session that had left in the last 5 minutes). Entries that never expire arm no
 * timer; the client already built new ones that way (a late answer written into it).
 */
export function releaseCache(queryClient: QueryClient): void {
  const entries = [
    ...queryClient.getQueryCache().getAll(),
    ...queryClient.getMutationCache().getAll(),
  ];
  for (const entry of entries) entry.gcTime = Number.POSITIVE_INFINITY;
  queryClient.setDefaultOptions({
    queries: { gcTime: Number.POSITIVE_INFINITY },
    mutations: { gcTime: Number.POSITIVE_INFINITY },
  });
  queryClient.clear();
}

export function mountClient(
  options: ClientSession & {
    env: NodeJS.ProcessEnv;
    stdin: NodeJS.ReadableStream;
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    onRenderError?: (error: Error) => void;
    /** The config file's `theme`, and the terminal's background when it said (OSC 11). */
    theme?: ThemeSetting;
    background?: "dark" | "light";
    /** SGR mouse reporting while the client owns the terminal (config `mouse`). */
    mouse?: boolean;
    /** When the client ends, before its cache is let go (to save what is worth keeping). */
    onExit?: () => void;
    /** After each render Ink makes of the tree (the tests count them). */
    onRender?: () => void;
  },
): MountedClient {
  const { queryClient, stdout } = options;
  // On a resize the terminal may already hold a frame of the old size, reflowed or
  // scrolled (over SSH a poll can draw one before the window change arrives), and Ink's
  // relative erase would then miss. So every resize starts from a clean screen and a
  // full frame. Registered before Ink's own listener, which then draws that frame.
  let mounted: Instance | undefined;
  const repaint = () => {
    stdout.write("\x1b[2J\x1b[H");
    mounted?.clear();
  };
  stdout.on("resize", repaint);
  let suspendTerminal: SuspendTerminal | undefined;
  const input = options.mouse ? withMouseInput(options.stdin) : undefined;
  // Ink draws its first frame from where the cursor is, and the alternate screen keeps
  // the column: a key typed before parley read the terminal, echoed by it, left the
  // cursor one column in, and every row of the frame wrapped (the header scrolled off).
  // A frame that starts at column 0 fills the screen whatever the row.
  stdout.write("\r");
  const instance = render(
    <TerminalControl
      onReady={(suspend) => {
        suspendTerminal = suspend;
      }}
    >
      <Root
        session={options.session}
        queryClient={queryClient}
        env={options.env}
        theme={options.theme}
        background={options.background}
        mouse={input?.source}
        onRenderError={options.onRenderError}
      />
    </TerminalControl>,
    {
      stdin: (input?.stdin ?? options.stdin) as NodeJS.ReadStream,
      stdout: options.stdout,
      stderr: options.stderr,
      // The caller knows this is a terminal; Ink's own guess turns one non-interactive when CI is set.
      interactive: true,
      alternateScreen: true,
      incrementalRendering: true,
      patchConsole: false,
      exitOnCtrlC: false,
      maxFps: 60,
      onRender: options.onRender,
      // Asks the terminal (CSI ? u) and turns the kitty keyboard protocol on only if it
      // answers within 200 ms, so that Shift+Enter can be told from Enter there; any other
      // terminal ignores the question and keeps its usual keys. Only disambiguation: keys
      // that have a legacy form keep it, and no release events are asked for.
      kittyKeyboard: { mode: "auto", flags: ["disambiguateEscapeCodes"] },
    },
  );
  mounted = instance;
  // Mouse reporting is on exactly while the client holds the terminal: off when it ends
  // (quit, signal, crash: every way out unmounts) and while it is suspended (Ctrl+Z, an
  // editor), so the shell never receives mouse reports.
  const mouse = (on: boolean) => {
    if (options.mouse) stdout.write(on ? MOUSE_ON : MOUSE_OFF);
  };
  mouse(true);
  // A finished session (an SSH user who left) must not keep its cache until garbage collection.
  const release = () => {
    mouse(false);
    stdout.off("resize", repaint);
    options.onExit?.();
    releaseCache(queryClient);
  };
  instance.waitUntilExit().then(release, release);
  return {
    instance,
    suspendTerminal: async () => {
      if (!suspendTerminal) throw new Error("the client is not mounted yet");
      mouse(false);
      const suspension = await suspendTerminal();
      const resume = async () => {
        await suspension.resume();
        mouse(true);
      };
      return { resume, [Symbol.asyncDispose]: resume };
    },
  };
}
