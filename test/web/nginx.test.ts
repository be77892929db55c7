// docs/team.md's nginx lines for `parley web`, run: Debian's nginx with the docs' block as
// it is (ports and certificate paths made local), TLS outside, in front of `parley web
// --trust-proxy 127.0.0.1` (src/web/server.ts, from source). A WebSocket through it is
// upgraded and drawn, and the visitor's address is the one nginx appended to what the
// visitor sent. nginx: apt-get install nginx (.ci/run does); without it, skipped.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClientOptions, WebSocket } from "ws";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { startWebServer, type WebServer } from "../../src/web/server.ts";
import { freePort } from "../free-port.ts";
import { NGINX, startNginx } from "../nginx.ts";
import { onPath } from "../processes.ts";
import { selfSignedCert } from "../self-signed.ts";
import { until } from "../wait.ts";

const doc = readFileSync(new URL("../../docs/team.md", import.meta.url), "utf8");
const section = doc.split("\n### `parley web` behind a reverse proxy\n")[1]?.split(/\n##+ /)[0];

describe.skipIf(NGINX === undefined || !onPath("openssl"))(
  "docs/team.md's nginx lines for parley web",
  () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-web-nginx-"));
    const log: string[] = [];
    let api: RunningServer | undefined;
    let web: WebServer | undefined;
    let nginx: ChildProcess | undefined;
    afterAll(async () => {
      nginx?.kill("SIGTERM");
      await web?.close();
      await api?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("passes the WebSocket on, and the visitor's address with it", async () => {
      const config = /```nginx\n([\s\S]*?)```/.exec(section ?? "")?.[1] ?? "";
      expect(config).toContain("proxy_set_header Upgrade $http_upgrade;");
      expect(section).toContain("parley web --demo --trust-proxy 127.0.0.1");
      api = await startServer({ demo: true, demoReplies: false });
      web = await startWebServer({
        port: await freePort(),
        assets: new URL("../../src/web/page/", import.meta.url),
        access: { kind: "demo", url: api.url, users: api.demoUsers },
        trustProxy: ["127.0.0.1"],
        log: (line) => log.push(line),
      });
      selfSignedCert(dir, "demo.example.com");
      const tls = await freePort();
      const local = config
        .replace("proxy_pass http://127.0.0.1:8080;", `proxy_pass http://127.0.0.1:${web.port};`)
        .replace("listen 443 ssl;", `listen 127.0.0.1:${tls} ssl;`)
        .replace("/etc/letsencrypt/live/demo.example.com/fullchain.pem", join(dir, "cert.pem"))
        .replace("/etc/letsencrypt/live/demo.example.com/privkey.pem", join(dir, "key.pem"));
      expect(local).not.toContain("8080");
      nginx = startNginx(dir, local);

      const ca = readFileSync(join(dir, "cert.pem"), "utf8");
      let bytes = 0;
      const socket = await until(async () => {
        // The certificate is for demo.example.com, reached at 127.0.0.1 (tls.connect's own
        // servername option, passed on by ws).
        const options: ClientOptions & { servername: string } = {
          ca,
          servername: "demo.example.com",
          origin: "https://demo.example.com",
          headers: { host: "demo.example.com", "x-forwarded-for": "203.0.113.7" },
        };
        const attempt = new WebSocket(`wss://127.0.0.1:${tls}/session`, options);
        attempt.on("message", (data, binary) => {
          if (binary) bytes += (data as Buffer).length;
        });
        try {
          await once(attempt, "open");
          return attempt;
        } catch {
          return undefined;
        }
      }, "a WebSocket through nginx");
      socket.send(JSON.stringify({ type: "hello", columns: 100, rows: 30, theme: "dark" }));
      await until(() => bytes > 0, "the first frame through nginx");
      // The visitor wrote 203.0.113.7; nginx appended 127.0.0.1 (where it was reached
      // from), a trusted proxy's address, so the visitor is 203.0.113.7.
      await until(
        () => log.some((l) => /: \w+ \(203\.0\.113\.7 via 127\.0\.0\.1\) signed in/.test(l)),
        "the sign-in logged with the forwarded address",
        { detail: () => log.join("\n") },
      );
      socket.close();
      await until(() => web!.liveSessions() === 0, "the session gone");
    }, 60_000);
  },
);
