// docs/team.md's reverse proxy and systemd unit, run: Debian's nginx with the docs'
// configuration as it is (ports, certificate paths made local), in front of two `parley
// serve` processes on one PostgreSQL database, TLS on the outside; an event stream
// opened through it gets a message sent through it while the stream stays open (nothing
// buffered). The unit file passes `systemd-analyze verify`. nginx: apt-get install nginx
// (.ci/run does); without it, or without PostgreSQL, the proxy test is skipped.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS } from "../../src/server/connections.ts";
import { runUsers } from "../../src/server/users-cli.ts";
import { freePort } from "../free-port.ts";
import { NGINX, startNginx } from "../nginx.ts";
import { onPath } from "../processes.ts";
import { selfSignedCert } from "../self-signed.ts";
import { until } from "../wait.ts";
import { madeDb, STORE } from "./stores.ts";

const CLI = new URL("../../src/cli.ts", import.meta.url).pathname;
const doc = readFileSync(new URL("../../docs/team.md", import.meta.url), "utf8");
const block = (language: string, heading: string) =>
  new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(
    doc.split(`\n## ${heading}\n`)[1]?.split(/\n## /)[0] ?? "",
  )?.[1] ?? "";

const dir = mkdtempSync(join(tmpdir(), "parley-nginx-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

async function serve(db: string): Promise<number> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--db", db], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(child);
  const first: string = await new Promise((resolve) =>
    createInterface({ input: child.stdout! }).once("line", resolve),
  );
  child.stdout!.resume();
  return Number(/:(\d+)$/.exec(first)![1]);
}

/** An HTTPS request through the proxy, trusting the test's certificate for its name. */
function https(
  port: number,
  ca: string,
  path: string,
  options: {
    method?: string;
    token?: string;
    body?: string;
    accept?: string;
    contentType?: string;
  } = {},
  onData?: (text: string) => void,
  onHeaders?: (status: number) => void,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        servername: "chat.example.com",
        ca,
        headers: {
          host: "chat.example.com",
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.accept ? { accept: options.accept } : {}),
          ...(options.body
            ? { "content-type": options.contentType ?? "application/x-www-form-urlencoded" }
            : {}),
        },
      },
      (res) => {
        onHeaders?.(res.statusCode!);
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
          onData?.(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

describe.skipIf(STORE !== "postgres" || NGINX === undefined || !onPath("openssl"))(
  "docs/team.md's nginx configuration",
  () => {
    it("serves two instances over TLS, the event stream live through it", async () => {
      const config = block("nginx", "TLS through a reverse proxy (nginx)");
      expect(config).toContain("proxy_buffering off;");
      const db = await madeDb();
      const alice = (await runUsers(db, ["add", "alice"])).out[0]!;
      const bob = (await runUsers(db, ["add", "bob"])).out[0]!;
      const [a, b] = [await serve(db), await serve(db)];

      selfSignedCert(dir, "chat.example.com");
      const ca = readFileSync(join(dir, "cert.pem"), "utf8");
      const [tls, plain] = [await freePort(), await freePort()];
      const local = config
        .replace("server 127.0.0.1:4317;", `server 127.0.0.1:${a};`)
        .replace("server 127.0.0.1:4318;", `server 127.0.0.1:${b};`)
        .replace("listen 443 ssl;", `listen 127.0.0.1:${tls} ssl;`)
        .replace("listen 80;", `listen 127.0.0.1:${plain};`)
        .replace(
          /\/etc\/letsencrypt\/live\/chat\.example\.com\/fullchain\.pem/,
          join(dir, "cert.pem"),
        )
        .replace(
          /\/etc\/letsencrypt\/live\/chat\.example\.com\/privkey\.pem/,
          join(dir, "key.pem"),
        );
      // Every address of the doc's replaced (a free port may itself hold the digits 4317).
      expect(local).not.toMatch(/:431[78];|listen (443|80)\b|letsencrypt/);
      // parley asks nginx not to buffer its streams (X-Accel-Buffering: no); ignored
      // here, so that the test holds the configuration's own proxy_buffering off.
      children.push(startNginx(dir, local, ["proxy_ignore_headers X-Accel-Buffering;"]));
      await until(
        async () => (await https(tls, ca, "/healthz").catch(() => undefined))?.status === 200,
        "nginx and parley answering",
      );

      // Both instances behind it, one server (one database).
      const ids = new Set<unknown>();
      for (let i = 0; i < 4; i++) {
        const ready = await https(tls, ca, "/readyz");
        expect(ready.status).toBe(200);
        ids.add(ready.headers["parley-server-id"]);
      }
      expect(ids.size).toBe(1);
      expect((await https(tls, ca, "/metrics")).status).toBe(404);

      // bob's stream, through nginx; alice writes to him through nginx.
      let streamed = "";
      let streamEnded = false;
      let streamStatus = 0;
      const stream = https(
        tls,
        ca,
        "/v1/events",
        { token: bob, accept: "text/event-stream" },
        (text) => (streamed += text),
        (status) => (streamStatus = status),
      ).finally(() => (streamEnded = true));
      stream.catch(() => {});
      await until(() => streamStatus, "the stream's answer through nginx");
      expect(streamStatus).toBe(200);
      const opened = await https(tls, ca, "/v1/conversations", {
        method: "POST",
        token: alice,
        body: "contact_id=ct_bob",
      });
      expect(opened.status).toBe(200);
      const conversation = JSON.parse(opened.body).id as string;
      const sent = await https(tls, ca, "/v1/messages", {
        method: "POST",
        token: alice,
        body: `conversation_id=${conversation}&message=through+the+proxy`,
      });
      expect(sent.status).toBe(200);
      await until(
        () => /event: message\.created[\s\S]*through the proxy/.test(streamed),
        "the message on bob's stream through nginx",
      );
      expect(streamEnded).toBe(false);

      // An upload past nginx's usual 1 MB, and its URL: the proxy's name, over https.
      const text = "numbers, ".repeat(400_000);
      const boundary = "b0undary";
      const uploaded = await https(tls, ca, "/v1/files", {
        method: "POST",
        token: alice,
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="n.txt"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`,
      });
      expect(uploaded.status, uploaded.body).toBe(201);
      const fileUrl = new URL(JSON.parse(uploaded.body).file_url as string);
      expect(fileUrl.origin).toBe("https://chat.example.com");
      const fetched = await https(tls, ca, fileUrl.pathname);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toBe(text);
      const log = readFileSync(join(dir, "access.log"), "utf8");
      expect(log).toMatch(/"GET \/readyz HTTP\/1\.1" 200 /);
      expect(log).not.toContain(bob);
    }, 60_000);
  },
);

describe("docs/team.md's nginx configuration, read", () => {
  it("closes an idle connection to parley before parley does", () => {
    const upstream = /upstream parley \{([^}]*)\}/.exec(
      block("nginx", "TLS through a reverse proxy (nginx)"),
    )?.[1];
    expect(upstream).toMatch(/^\s*keepalive \d+;$/m);
    const idle = /^\s*keepalive_timeout (\d+)s;$/m.exec(upstream ?? "")?.[1];
    expect(Number(idle) * 1000).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS);
  });
});

describe.skipIf(!onPath("systemd-analyze"))("docs/team.md's systemd unit", () => {
  it("passes systemd-analyze verify with nothing to say", () => {
    const unit = block("ini", "A systemd unit");
    expect(unit).toMatch(/^Type=simple$/m);
    expect(unit).toMatch(/^User=parley$/m);
    expect(unit).toMatch(/^NoNewPrivileges=yes$/m);
    expect(unit).toMatch(/^ProtectSystem=strict$/m);
    // The binary it names must exist for verify: a stand-in of parley's.
    const bin = join(dir, "parley");
    writeFileSync(bin, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const file = join(dir, "parley.service");
    writeFileSync(file, unit.replace("ExecStart=/usr/bin/parley ", `ExecStart=${bin} `));
    const result = spawnSync("systemd-analyze", ["verify", file], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(
      `${result.stdout}${result.stderr}`.split("\n").filter((l) => l.includes("parley.service")),
    ).toEqual([]);
  });
});
