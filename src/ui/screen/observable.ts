// A store (model/store.ts) as React reads it: the component renders again when it changes.
import { useSyncExternalStore } from "react";
import type { Store } from "../model/store.ts";

export { createStore, type Store } from "../model/store.ts";

export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
