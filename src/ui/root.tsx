// The React tree of the client: theme, error boundary, server state, session and the key
// dispatcher around the App. Mounted on a terminal by src/client/mount.tsx.
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App } from "./app.tsx";
import { KeypressProvider } from "./keys/dispatcher.tsx";
import type { MouseSource } from "./keys/mouse.ts";
import { ThemeContext, type ThemeSetting, themeFor } from "./look/theme.ts";
import { ErrorBoundary } from "./screen/error-boundary.tsx";
import type { Session } from "./screen/session.ts";
import { SessionProvider } from "./screen/session-context.tsx";

export function Root({
  session,
  queryClient,
  env = process.env,
  theme = "auto",
  background,
  mouse,
  onRenderError,
}: {
  session: Session;
  queryClient: QueryClient;
  env?: NodeJS.ProcessEnv;
  /** The config file's `theme`; `auto` goes by `background`. */
  theme?: ThemeSetting;
  /** The terminal's background as it answered OSC 11, if it did. */
  background?: "dark" | "light";
  /** Mouse reports, when the mouse is on. */
  mouse?: MouseSource;
  onRenderError?: (error: Error) => void;
}) {
  return (
    <ThemeContext.Provider value={themeFor(env, theme, background)}>
      <ErrorBoundary onError={onRenderError}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider session={session}>
            <KeypressProvider mouse={mouse}>
              <App />
            </KeypressProvider>
          </SessionProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </ThemeContext.Provider>
  );
}
