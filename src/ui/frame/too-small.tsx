import { Box, Text } from "ink";

export const MIN_COLUMNS = 60;
export const MIN_ROWS = 15;

export function TooSmall({ columns, rows }: { columns: number; rows: number }) {
  return (
    <Box
      width={columns}
      height={rows}
      flexDirection="column"
      justifyContent="center"
      alignItems="center"
    >
      <Text bold wrap="truncate-end">
        terminal too small
      </Text>
      <Text wrap="truncate-end">{`${columns}x${rows}, needs ${MIN_COLUMNS}x${MIN_ROWS}`}</Text>
      <Text wrap="truncate-end">q quits</Text>
    </Box>
  );
}
