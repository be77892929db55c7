// One person's visit to `parley ssh`, as an ssh2 client: sign in, open the first
// conversation, type, and hang up.
import ssh2 from "ssh2";

export const clientKey = ssh2.utils.generateKeyPairSync("ed25519").private;

/**
 * Resolves, once the visit is over, with the screen as it was when the composer showed
 * (before typing). `text` is typed into the composer; the visit hangs up once it is
 * echoed, after `holdMs` more (time for the client to save a draft, say).
 */
export function visit(
  server: { host: string; port: number },
  username: string,
  options: { text?: string; holdMs?: number } = {},
): Promise<string> {
  const text = options.text ?? "hello from a visit";
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    const timer = setTimeout(() => reject(new Error(`${username}: no frame`)), 20_000);
    client.on("error", reject);
    client.on("ready", () => {
      client.shell({ term: "xterm-256color", cols: 120, rows: 40 }, (error, stream) => {
        if (error) return reject(error);
        let screen = "";
        let atComposer: string | undefined;
        let step = 0;
        // Enter on a list still settling can be dropped (no row selected yet): again, until
        // the conversation opens.
        let again: NodeJS.Timeout | undefined;
        const hangUp = () => {
          step = 3;
          clearTimeout(timer);
          setTimeout(() => client.end(), options.holdMs ?? 0);
        };
        stream.on("data", (chunk: Buffer) => {
          screen += chunk.toString("utf8");
          if (step === 0 && screen.includes("online") && screen.includes("▸")) {
            step = 1;
            stream.write("\r");
            again = setInterval(() => stream.write("\r"), 2000);
          } else if (step === 1 && screen.includes("Enter send")) {
            step = 2;
            clearInterval(again);
            atComposer = screen;
            if (text) stream.write(text);
            else hangUp();
          } else if (step === 2 && screen.slice(atComposer!.length).includes(text)) {
            hangUp();
          }
        });
        stream.on("close", () => {
          clearInterval(again);
          resolve(atComposer ?? screen);
        });
      });
    });
    client.connect({ host: server.host, port: server.port, username, privateKey: clientKey });
  });
}
