// The burst's sender, on a thread of its own: the bench's thread reads the client's
// terminal and times its keys, and 1,000 requests answered on that same thread delayed
// its reading of the echo by as much as a batch of responses took.
import { parentPort, workerData } from "node:worker_threads";
import { api } from "./news.ts";

type Order = {
  info: Parameters<typeof api>[0];
  conversationId: string;
  tag: string;
  count: number;
  parallel: number;
};

const { info, conversationId, tag, count, parallel } = workerData as Order;
const started = performance.now();
for (let i = 0; i < count; i += parallel) {
  const sends = [];
  for (let n = i; n < Math.min(count, i + parallel); n++) {
    sends.push(
      api(info, "bob", "/v1/messages", { conversation_id: conversationId, message: `${tag} ${n}` }),
    );
  }
  await Promise.all(sends);
}
parentPort!.postMessage(performance.now() - started);
