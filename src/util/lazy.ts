/**
 * Loads a module the first time it is needed. Start-up time is mostly module compilation, and some
 * modules serve only occasional requests (schemas, YAML, reports), so they are loaded on first use.
 */
export function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  let loaded = false;
  return () => {
    if (!loaded) {
      value = load();
      loaded = true;
    }
    return value as T;
  };
}
