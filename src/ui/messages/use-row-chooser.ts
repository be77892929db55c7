// A one-line chooser's moves (the reaction picker's row, the link chooser): round the
// choices, or take one; its scope's handlers (link-picker.tsx, reaction-picker.tsx) say
// which key does which.
import { useRef, useState } from "react";
import type { KeyAction } from "../keys/dispatcher.tsx";

export type RowChooser = {
  /** The choice shown as chosen. */
  index: number;
  previous: KeyAction;
  next: KeyAction;
  /** Takes the chosen one. */
  pick: KeyAction;
  /** Takes the one of the digit pressed (a chooser's number keys are the digits 1 to 9). */
  pickNumber: KeyAction;
};

export function useRowChooser<T>(choices: readonly T[], onPick: (choice: T) => void): RowChooser {
  const [index, setIndex] = useState(0);
  // The index as the keys left it, which the next key reads: keys of one read can come
  // before React has rendered the one before (Y → Enter then chose the first link).
  const chosen = useRef(0);
  const move = (to: number) => {
    chosen.current = to;
    setIndex(to);
  };
  const take = (choice: T | undefined) => {
    if (choice !== undefined) onPick(choice);
  };
  return {
    index,
    previous: () => move((chosen.current + choices.length - 1) % choices.length),
    next: () => move((chosen.current + 1) % choices.length),
    pick: () => take(choices[chosen.current]),
    pickNumber: (input) => take(choices[Number(input) - 1]),
  };
}
