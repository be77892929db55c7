import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The repository, not this folder: paths below are relative to it.
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["test/**/*.test.{ts,tsx}"],
    exclude: ["test/bench/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
