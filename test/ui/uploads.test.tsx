// /attach PATH in the composer against the real server: the file is uploaded, attached to
// the draft and sent, and its URL serves the same bytes; the limit is said before a byte
// is sent; a path pasted alone is offered; a server without uploads and a session without
// the person's disk (parley ssh) refuse in one line.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { StartOptions } from "../../src/server/index.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, enterLine, newestMessage, openFirst, refusedAttach } from "./helpers.ts";

const each = harnessEachTest();
const home = mkdtempSync(join(tmpdir(), "parley-home-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
mkdirSync(join(home, "docs"));
const notes = randomBytes(3 * 1024 * 1024 + 17);
writeFileSync(join(home, "docs", "notes.pdf"), notes);
writeFileSync(join(home, "my plan.txt"), "the plan\n");

const sentWith = (name: string) => (s: string) =>
  new RegExp(`you · \\d\\d:\\d\\d[\\s\\S]*📎 ${name}`, "u").test(s) && !s.includes("sending…");

/** alice in her conversation with bob, with `home` as her disk, on a server of `options`. */
async function withHome(options: StartOptions = {}) {
  const server = await each.server(options);
  const harness = await each.start({ server, home });
  await openFirst(harness, "bob");
  return { server, harness };
}

describe("/attach PATH", () => {
  it("uploads the file, attaches it to the draft, and the message carries its URL", async () => {
    const { server, harness } = await withHome();
    // The limit, said before anything is sent.
    await harness.waitFor((s) => s.includes("/attach URL or path, up to 25 MB"), "the limit");
    // Every notice the status bar is given, progress included.
    const notices: string[] = [];
    const { notice } = harness.session.status;
    each.afterTest(notice.subscribe(() => notices.push(notice.get()?.text ?? "")));
    await enterLine(harness, "/attach ~/docs/notes.pdf");
    await harness.waitFor((s) => s.includes("📎 notes.pdf · PDF"), "the attachment");
    expect(harness.screen()).toContain("Attached notes.pdf (3.0 MB)");
    const progress = notices.filter((text) => text.startsWith("Uploading notes.pdf: "));
    expect(notices.filter(Boolean)[0]).toBe("Uploading notes.pdf (3.0 MB)…");
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.at(-1)).toMatch(/^Uploading notes\.pdf: 90% of 3\.0 MB…$/);
    await enterLine(harness, "the notes");
    await harness.waitFor(sentWith("notes.pdf"), "the message sent");
    const message = (await newestMessage(apiFor(server), "bob"))!;
    expect(message.message).toBe("the notes");
    expect(message.attachments).toMatchObject([
      { filename: "notes.pdf", file_type: "application/pdf", file_size: notes.length },
    ]);
    const fetched = await fetch(message.attachments[0]!.file_url!);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(notes)).toBe(true);
  });

  it("says the limit before sending a file larger than it, and sends nothing", async () => {
    const { server, harness } = await withHome({ uploads: { maxBytes: 1024 * 1024 } });
    await refusedAttach(
      harness,
      "/attach ~/docs/notes.pdf",
      "notes.pdf is 3.0 MB; this server takes files up to 1.0 MB",
    );
    const alice = server.demoUsers[0]!.token;
    const used = await fetch(`${server.url}/v1/files`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(((await used.json()) as { used: number }).used).toBe(0);
  });

  it("offers a path pasted alone (quoted, as a dropped file is) and uploads it on y", async () => {
    const { harness } = await withHome();
    await harness.paste(`'${join(home, "my plan.txt")}'`);
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Attach my plan.txt (9 B) from your disk? y uploads it"),
      "the offer",
    );
    await harness.press("y");
    await harness.waitFor((s) => s.includes("📎 my plan.txt · TXT"), "the attachment");
    await harness.press(KEYS.enter);
    await harness.waitFor(sentWith("my plan.txt"), "the message sent");
  });

  it("a missing file, and a server without uploads, are one line each", async () => {
    const { harness } = await withHome({ uploads: false });
    await refusedAttach(harness, "/attach ~/nothing.pdf", "there is no file ~/nothing.pdf");
    // Kept, to be put right.
    expect(harness.screen()).toContain("/attach ~/nothing.pdf");
    await harness.press(KEYS.backspace.repeat("/attach ~/nothing.pdf".length));
    await refusedAttach(
      harness,
      "/attach ~/my plan.txt",
      "this server takes no uploads: attach a link instead (/attach https://…)",
    );
    expect(harness.screen()).not.toContain("📎 my plan.txt");
  });

  it("without the person's disk (parley ssh) a path is refused in one line", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await refusedAttach(
      harness,
      "/attach ~/docs/notes.pdf",
      "over parley ssh a path names the server's disk, not yours",
    );
  });
});
