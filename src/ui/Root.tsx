// The React tree of the client: theme, error boundary, server state, session and the key
// dispatcher around the App. Mounted on a terminal by src/client/mount.tsx.
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App } from "./App.tsx";
import { ErrorBoundary } from "./components/ErrorBoundary.tsx";
import { KeypressProvider } from "./input.tsx";
import { type Session, SessionProvider } from "./session.tsx";
import { ThemeContext, themeFor } from "./theme.ts";

export function Root({
  session,
  queryClient,
  env = process.env,
  onRenderError,
}: {
  session: Session;
  queryClient: QueryClient;
  env?: NodeJS.ProcessEnv;
  onRenderError?: (error: Error) => void;
}) {
  return (
    <ThemeContext.Provider value={themeFor(env)}>
      <ErrorBoundary onError={onRenderError}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider session={session}>
            <KeypressProvider>
              <App />
            </KeypressProvider>
          </SessionProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </ThemeContext.Provider>
  );
}
