import { InvalidBackupRequestError, UnknownResourceTypeError } from '../../errors';

/** The resource types a backup holds (docs/reference/management-plane.md#backup-resources), in the order a restore applies them. */
export const RESOURCE_TYPES = ['proto-schemas', 'templates', 'caches', 'counters', 'tasks'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** `all` (`["*"]`) or the names asked for; a type that is absent is not included at all. */
export type Selection = 'all' | string[];
export type Resources = Partial<Record<ResourceType, Selection>>;

export const ALL_RESOURCES: Resources = Object.fromEntries(RESOURCE_TYPES.map((t) => [t, 'all'])) as Resources;

// The spec names templates `cache-configs`; the original only knows `templates`: both are accepted.
const ALIASES: Readonly<Record<string, ResourceType>> = { 'cache-configs': 'templates' };

/**
 * The `resources` object of a backup or restore request: keys case-insensitive, values arrays of
 * names, `["*"]` for all of a type; missing, null or `{}` means everything.
 */
export function parseResources(json: unknown): Resources {
  if (json === undefined || json === null) return ALL_RESOURCES;
  if (typeof json !== 'object' || Array.isArray(json)) throw new InvalidBackupRequestError("'resources' must be a JSON object");
  const entries = Object.entries(json as Record<string, unknown>);
  if (entries.length === 0) return ALL_RESOURCES;
  const out: Resources = {};
  for (const [key, value] of entries) {
    const lower = key.toLowerCase();
    const type = ALIASES[lower] ?? RESOURCE_TYPES.find((t) => t === lower);
    if (!type) throw new UnknownResourceTypeError(key);
    if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
      throw new InvalidBackupRequestError(`'resources.${key}' must be an array of names`);
    }
    out[type] = value.length === 1 && value[0] === '*' ? 'all' : [...new Set(value)];
  }
  return out;
}

/** Names of one type to include, from those available; `missing` lists the requested names not available. */
export function selectNames(selection: Selection | undefined, available: readonly string[]): { names: string[]; missing: string[] } {
  if (selection === undefined) return { names: [], missing: [] };
  if (selection === 'all') return { names: [...available], missing: [] };
  const have = new Set(available);
  return { names: selection.filter((n) => have.has(n)), missing: selection.filter((n) => !have.has(n)) };
}
