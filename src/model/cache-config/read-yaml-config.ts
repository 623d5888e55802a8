import type { Document, Node as YamlNode } from 'yaml';
// loaded on first use: most servers never see YAML, and start-up time is module compilation
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => (yamlModule ??= require('yaml') as typeof import('yaml'));
import { InvalidConfigurationError } from '../../errors';
import { type ConfigBudget, tooDeepError, tooLargeError } from './config-limits';
import { camelToKebab } from './naming';
import type { RawDocument } from './raw-config';
import { readObjectConfig } from './read-object-config';
import { KeyLocator, type KeyOffset, LineIndex } from './text-location';

/**
 * One iterative walk over the parsed document, before anything recursive touches it: refuses
 * anchors and aliases (the "billion laughs" building blocks; no use in a cache definition),
 * duplicate keys, nesting deeper than the limit allows and more nodes than it allows, and collects
 * the keys with their offsets in document order.
 */
function inspect(document: Document.Parsed, budget: ConfigBudget): KeyOffset[] {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml();
  const { configDepth, configElements, configAttributes } = budget.limits;
  // sequences and maps both nest in YAML where JSON/XML nest only elements
  const maxDepth = configDepth * 2;
  const maxNodes = configElements + configAttributes;
  const keys: KeyOffset[] = [];
  let nodes = 0;
  const stack: Array<{ node: unknown; depth: number }> = [{ node: document.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || node === undefined) continue;
    if (isAlias(node)) throw new InvalidConfigurationError('YAML aliases are not allowed in a configuration');
    if ((node as YamlNode).anchor) throw new InvalidConfigurationError('YAML anchors are not allowed in a configuration');
    if (isPair(node)) {
      const key = node.key;
      if (isScalar(key)) keys.push({ key: String(key.value), offset: key.range?.[0] ?? -1 });
      stack.push({ node: node.value, depth }, { node: key, depth });
      continue;
    }
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth + 1 > maxDepth) throw tooDeepError(configDepth);
    nodes += node.items.length;
    if (nodes > maxNodes) throw tooLargeError('keys and values', maxNodes, 'config-elements + config-attributes');
    if (isMap(node)) rejectDuplicateKeys(node.items);
    for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i], depth: depth + 1 });
  }
  return keys;
}

function rejectDuplicateKeys(pairs: ReadonlyArray<{ key: unknown }>): void {
  const seen = new Set<unknown>();
  for (const { key } of pairs) {
    const k = yaml().isScalar(key) ? key.value : key;
    if (seen.has(k)) throw new InvalidConfigurationError('Map keys must be unique');
    seen.add(k);
  }
}

function parse(text: string): Document.Parsed {
  try {
    // uniqueKeys off: the library's check is quadratic; inspect() does it in linear time
    return yaml().parseDocument(text, { uniqueKeys: false });
  } catch (err) {
    if (err instanceof RangeError) throw new InvalidConfigurationError('The configuration is nested too deeply');
    throw err;
  }
}

/** The parsed value (anchors, aliases and duplicate keys refused) and where each key is in the text. */
export function readYamlDocument(text: string, budget: ConfigBudget): { value: unknown; locator: KeyLocator } {
  const document = parse(text);
  if (document.errors.length > 0) {
    const message = document.errors[0].message;
    throw new InvalidConfigurationError(/call stack/i.test(message) ? 'The configuration is nested too deeply' : message);
  }
  const keys = inspect(document, budget);
  return { value: document.toJS({ maxAliasCount: 0 }) as unknown, locator: new KeyLocator(keys, new LineIndex(text)) };
}

/** YAML names are camelCase (`maxCount`); kebab-case keys are accepted as they are. */
export function readYamlConfig(text: string, budget: ConfigBudget): RawDocument {
  const { value, locator } = readYamlDocument(text, budget);
  return readObjectConfig(value, { toName: camelToKebab, locator, budget });
}
