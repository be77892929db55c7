// A one-line chooser's keys (the reaction picker's row, the link chooser): ←→ move round the
// choices, Enter or a digit takes one, Esc closes. Owns every key while open but Ctrl+C.
import { useRef, useState } from "react";
import { matchBinding, type Scope, type ScopeBinding } from "../keys/bindings.ts";
import { PRIORITY, useKeypress } from "../keys/dispatcher.tsx";

/** What a key does in a chooser, whatever its scope calls it. */
export type ChooserMove = "previous" | "next" | "pick" | "pickNumber" | "close" | "own";

/** Returns the index of the choice shown as chosen. */
export function useRowChooser<T, S extends Scope>(options: {
  choices: readonly T[];
  /** The chooser's scope in the key table, and what each of its bindings does. */
  scope: S;
  moves: Record<ScopeBinding<S>, ChooserMove>;
  onPick: (choice: T) => void;
  onClose: () => void;
  /** A binding the chooser has beyond the moves ("own" in `moves`), e.g. the picker's `:`. */
  onOwn?: (id: ScopeBinding<S>) => void;
  /** While false, the chooser leaves the keys to whoever took over (a name prompt). */
  isActive?: boolean;
}): number {
  const { choices, onPick, onClose } = options;
  const [index, setIndex] = useState(0);
  // The index as the keys left it, which the next key reads: keys of one read can come
  // before React has rendered the one before (Y → Enter then chose the first link).
  const chosen = useRef(0);
  const move = (to: number) => {
    chosen.current = to;
    setIndex(to);
  };
  useKeypress(
    (input, key) => {
      if (matchBinding("anywhere", input, key) === "global.quit") return false;
      const id = matchBinding(options.scope, input, key);
      switch (id === undefined ? undefined : options.moves[id]) {
        case "own":
          if (id !== undefined) options.onOwn?.(id);
          break;
        case "close":
          onClose();
          break;
        case "previous":
          move((chosen.current + choices.length - 1) % choices.length);
          break;
        case "next":
          move((chosen.current + 1) % choices.length);
          break;
        case "pick": {
          const choice = choices[chosen.current];
          if (choice !== undefined) onPick(choice);
          break;
        }
        case "pickNumber": {
          // A chooser's number keys are the digits 1 to 9: the input is the number.
          const choice = choices[Number(input) - 1];
          if (choice !== undefined) onPick(choice);
          break;
        }
      }
      return true;
    },
    { priority: PRIORITY.dialog, isActive: options.isActive ?? true },
  );
  return index;
}
