// listenOn: the one way parley serve, its metrics address, parley ssh and parley web
// start listening. A port someone else holds is a rejection the CLI turns into one line.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listenOn } from "../../src/server/listen.ts";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  }
});
const server = () => {
  const made = createServer();
  servers.push(made);
  return made;
};

describe("listenOn", () => {
  it("resolves to the port the system gave when asked for any (0)", async () => {
    const first = server();
    const port = await listenOn(first, 0, "127.0.0.1");
    expect(port).toBeGreaterThan(0);
    expect(first.listening).toBe(true);
  });

  it("rejects with EADDRINUSE on a taken port, and leaves no error listener behind", async () => {
    const port = await listenOn(server(), 0, "127.0.0.1");
    const second = server();
    await expect(listenOn(second, port, "127.0.0.1")).rejects.toMatchObject({
      code: "EADDRINUSE",
    });
    expect(second.listening).toBe(false);
    expect(second.listenerCount("error")).toBe(0);
  });

  it("leaves no error listener behind once listening", async () => {
    const first = server();
    await listenOn(first, 0, "127.0.0.1");
    expect(first.listenerCount("error")).toBe(0);
  });
});
