// A render error shows on screen (and goes to the crash log) instead of leaving a
// blank alternate screen behind.
import { Box, Text } from "ink";
import { Component, type ReactNode } from "react";
import { ThemeContext } from "../look/theme.ts";

type Props = { children: ReactNode; onError?: (error: Error) => void };

export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  static override contextType = ThemeContext;
  declare context: React.ContextType<typeof ThemeContext>;
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    this.props.onError?.(error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Box flexDirection="column" padding={1}>
        <Text color={this.context.error} bold>
          parley hit an error it cannot recover from on this screen:
        </Text>
        <Text>{this.state.error.message}</Text>
        <Text>Press q or Ctrl+C to quit; details are in the crash log named on exit.</Text>
      </Box>
    );
  }
}
