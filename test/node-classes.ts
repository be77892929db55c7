// Test files share a worker (`isolate: false`, test/vitest.config.ts). Starting parley's
// server in the test's process makes @hono/node-server's lighter Request and Response the
// process's (getRequestListener), so every file starts with Node's own again, as it would
// in a process of its own. The server sets its own once more when a file starts one.
const key = Symbol.for("parley.test.node-fetch-classes");
const store = globalThis as unknown as Record<symbol, Record<string, unknown> | undefined>;
store[key] ??= { Request: globalThis.Request, Response: globalThis.Response };
for (const [name, value] of Object.entries(store[key])) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
}
