// `npm run bench`: the server, client, peers (WeeChat, irssi), distant start-up, news latency,
// network, `parley ssh` and `parley web`
// benchmarks, in one run on one machine, printed as markdown. Progress goes to stderr,
// the tables to stdout.
import { availableParallelism, cpus, loadavg } from "node:os";
import { benchBurst } from "./burst.ts";
import { benchClient, clientFigures } from "./client.ts";
import { benchNews } from "./news.ts";
import { benchPeers } from "./peers.ts";
import { benchServer } from "./server.ts";
import { benchSsh, benchSshAttack, benchSshUnderLoad } from "./ssh.ts";
import { benchStartupFar } from "./startup.ts";
import { benchSustained } from "./sustained.ts";
import { benchTraffic } from "./traffic.ts";
import { benchWeb } from "./web.ts";

const out = (text: string) => process.stdout.write(`${text}\n`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ");

const started = performance.now();
out("# parley benchmarks");
out("");
out(
  `node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "unknown model"}), ${process.platform}/${process.arch}; load average (1/5/15 min) at the start: ${load()}.`,
);
out(
  "The machine is shared and noisy (other work runs beside the bench): every figure below comes from this one run, so compare within it, and read small differences as noise.",
);
out("");
out("## Server");
out("");
out(await benchServer());
out("");
out("## Client");
out("");
out(await benchClient());
out("");
out("## Beside WeeChat and irssi: start-up, bytes per key, idle, memory");
out("");
out(await benchPeers());
out("");
out("## Start-up against a server 300 ms away, with and without the kept cache");
out("");
out(await benchStartupFar());
out("");
out("## News: from a POST to the other client's screen, with events and with polling");
out("");
out(await benchNews());
out("");
out("## A burst of news into the client");
out("");
out(await benchBurst());
out("");
out("## The event stream under a sustained load");
out("");
out(await benchSustained());
out("");
out("## Network: one conversation open, idle (events, polling + ETags, polling alone)");
out("");
out(await benchTraffic());
out("");
out("## parley ssh: 20 sessions at once");
out("");
out(await benchSsh(clientFigures));
out("");
out("## parley ssh under load: 50 typing, 500 silent, one stuck");
out("");
out(await benchSshUnderLoad());
out("");
out("## parley ssh under attack: a paste flood and a resize storm beside a victim");
out("");
out(await benchSshAttack());
out("");
out("## parley web under load: 50 typing, 200 idle, a world each");
out("");
out(await benchWeb());
out("");
out(
  `Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the end: ${load()}.`,
);
