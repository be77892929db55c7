// The page of `parley web`: the client's terminal drawn by xterm.js, joined to a session on
// the server by a WebSocket (src/web/socket.ts has the protocol). Plain JavaScript, served
// as it is: a visitor's browser needs nothing built.
import { FitAddon } from "./addon-fit.mjs";
import { Unicode11Addon } from "./addon-unicode11.mjs";
import { WebLinksAddon } from "./addon-web-links.mjs";
import { Terminal } from "./xterm.mjs";

const THEMES = {
  dark: {
    background: "#0d1117",
    foreground: "#e6edf3",
    cursor: "#e6edf3",
    selectionBackground: "#264f78",
  },
  light: {
    background: "#ffffff",
    foreground: "#1f2328",
    cursor: "#1f2328",
    selectionBackground: "#add6ff",
  },
};
const scheme = matchMedia("(prefers-color-scheme: dark)");
const themeName = () => (scheme.matches ? "dark" : "light");

const box = document.getElementById("terminal");
const signin = document.getElementById("signin");
const ended = document.getElementById("ended");
const demo = document.body.dataset.mode === "demo";
const encoder = new TextEncoder();

/** Links open in a new tab, without a way back to this one; only web addresses. */
function openLink(uri) {
  let url;
  try {
    url = new URL(uri);
  } catch {
    return;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return;
  window.open(url.href, "_blank", "noopener,noreferrer");
}

/** OSC 52: the client copies a message; it goes to the browser's clipboard. */
function copyToClipboard(data) {
  const encoded = data.slice(data.indexOf(";") + 1);
  if (encoded === "" || encoded === "?") return true;
  try {
    const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
    navigator.clipboard?.writeText(new TextDecoder().decode(bytes)).catch(() => {});
  } catch {
    // Not base64: nothing to copy.
  }
  return true;
}

let current;

function show(panel, why) {
  for (const other of [signin, ended]) other.hidden = other !== panel;
  panel.querySelector(".why").textContent = why;
  panel.querySelector("input, button")?.focus();
}

function start(token) {
  current?.close();
  signin.hidden = true;
  ended.hidden = true;
  box.replaceChildren();
  const term = new Terminal({
    allowProposedApi: true,
    fontFamily: '"DejaVu Sans Mono", Menlo, Consolas, monospace',
    fontSize: 15,
    theme: THEMES[themeName()],
    linkHandler: { activate: (_event, uri) => openLink(uri) },
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.loadAddon(new WebLinksAddon((_event, uri) => openLink(uri)));
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = "11";
  term.parser.registerOscHandler(52, copyToClipboard);
  term.open(box);
  fit.fit();
  term.focus();

  const url = new URL("session", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  let last;
  const send = (data) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(data);
  };
  socket.onopen = () => {
    const hello = { type: "hello", columns: term.cols, rows: term.rows, theme: themeName() };
    if (token !== undefined) hello.token = token;
    send(JSON.stringify(hello));
  };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") last = JSON.parse(event.data);
    else term.write(new Uint8Array(event.data));
  };
  socket.onclose = () => {
    observer.disconnect();
    if (current?.socket !== socket) return;
    current = undefined;
    term.options.disableStdin = true;
    if (last?.type === "signin") show(signin, last.message);
    else if (last?.type === "end") show(ended, last.notes.join("\n"));
    else show(ended, "The server went away. It may be back in a moment.");
  };
  term.onData((data) => send(encoder.encode(data)));
  term.onBinary((data) => send(Uint8Array.from(data, (c) => c.charCodeAt(0))));
  term.onResize(({ cols, rows }) => send(JSON.stringify({ type: "resize", columns: cols, rows })));
  const observer = new ResizeObserver(() => fit.fit());
  observer.observe(box);
  current = {
    socket,
    close() {
      observer.disconnect();
      socket.close();
      term.dispose();
    },
  };
}

signin.addEventListener("submit", (event) => {
  event.preventDefault();
  const token = new FormData(signin).get("token");
  signin.reset();
  start(String(token));
});
ended.querySelector("button").addEventListener("click", () => {
  if (demo) start();
  else show(signin, "");
});

if (demo) start();
else show(signin, "");
