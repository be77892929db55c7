// The terminal's input with the mouse reports taken out before Ink reads it (Ink drops
// them: it has no mouse events), handed to the key dispatcher as a MouseSource instead.
import type { MouseEvent, MouseSource } from "../ui/keys/mouse.ts";
import { splitMouse } from "../ui/keys/mouse.ts";

export function withMouseInput(stdin: NodeJS.ReadableStream): {
  stdin: NodeJS.ReadableStream;
  source: MouseSource;
} {
  const listeners = new Set<(event: MouseEvent) => void>();
  let partial = "";
  const target = stdin as NodeJS.ReadableStream & { read(): string | Buffer | null };
  const read = () => {
    for (;;) {
      const chunk = target.read();
      if (chunk === null) {
        // A cut-off report that never went on was no report: give it to Ink as it came.
        const held = partial;
        partial = "";
        return held === "" ? null : held;
      }
      const split = splitMouse(partial + chunk.toString());
      partial = split.partial;
      for (const event of split.reports) for (const listener of listeners) listener(event);
      if (split.rest !== "") return split.rest;
    }
  };
  const proxy = new Proxy(target, {
    get(object, prop) {
      if (prop === "read") return read;
      const value = Reflect.get(object, prop, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
  return {
    stdin: proxy,
    source: {
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}
