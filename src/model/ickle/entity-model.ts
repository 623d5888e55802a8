import type { Enum, Field, Type } from 'protobufjs';
import { type Annotation, boolAttr, findAnnotation, parseAnnotations, stringAttr } from '../protobuf/proto-annotations';

/** How the engine holds a field's values: protobuf scalars grouped as the original's Java types. */
export type ValueKind = 'string' | 'int' | 'long' | 'float' | 'double' | 'bool' | 'enum' | 'bytes' | 'message';

/** What a field's indexing annotation says (docs/reference/query.md#annotation-attributes); all false without one. */
export interface FieldFlags {
  searchable: boolean;
  projectable: boolean;
  sortable: boolean;
  aggregable: boolean;
  analyzed: boolean;
  normalized: boolean;
}

export interface PropertyModel {
  name: string;
  kind: ValueKind;
  repeated: boolean;
  /** The Java type the original reports (`java.lang.Integer`), for messages and the metamodel. */
  javaType: string;
  /** Enum values by name, and the enum's full name. */
  enumValues?: Record<string, number>;
  enumName?: string;
  /** The nested message, for `message` fields. */
  message?: () => EntityModel;
  /** A proto2 `[default = …]`: absent values read as it (docs/reference/query.md#scan-semantics). */
  defaultValue?: string | number | boolean;
  /** The indexing annotation that applies (`Basic`, `Keyword`, `Text`, …, legacy `Field`). */
  annotation?: string;
  flags: FieldFlags;
  analyzer?: string;
  normalizer?: string;
  /** A message field whose fields are indexed with its owner (docs/reference/query.md#annotation-attributes). */
  embedded: boolean;
}

/** A message field whose target is @Indexed with at least one annotated field: indexed with its owner (docs/reference/query.md#annotation-attributes). */
export function isEmbedded(p: PropertyModel): boolean {
  if (p.kind !== 'message' || !p.embedded || !p.message) return false;
  const target = p.message();
  return target.indexed && target.annotatedFields > 0;
}

export interface EntityModel {
  /** Full message name (`package.Message`). */
  name: string;
  /** `@Indexed` and not `enabled=false`. */
  indexed: boolean;
  indexName: string;
  properties: ReadonlyMap<string, PropertyModel>;
  /** Fields carrying any indexing annotation (an @Indexed type needs one, ISPN028021). */
  annotatedFields: number;
}

// loaded on first use, as elsewhere in the model
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));

const KINDS: Readonly<Record<string, [ValueKind, string]>> = {
  string: ['string', 'java.lang.String'], bool: ['bool', 'java.lang.Boolean'], bytes: ['bytes', '[B'],
  double: ['double', 'java.lang.Double'], float: ['float', 'java.lang.Float'],
  int32: ['int', 'java.lang.Integer'], uint32: ['int', 'java.lang.Integer'], sint32: ['int', 'java.lang.Integer'],
  fixed32: ['int', 'java.lang.Integer'], sfixed32: ['int', 'java.lang.Integer'],
  int64: ['long', 'java.lang.Long'], uint64: ['long', 'java.lang.Long'], sint64: ['long', 'java.lang.Long'],
  fixed64: ['long', 'java.lang.Long'], sfixed64: ['long', 'java.lang.Long'],
};

const FIELD_ANNOTATIONS = ['Basic', 'Keyword', 'Text', 'Decimal', 'Embedded', 'Vector', 'Field'] as const;

const models = new WeakMap<Type, EntityModel>();

/** The query view of a protobuf message type; memoized per type object (a schema change makes new ones). */
export function entityModelOf(type: Type): EntityModel {
  let model = models.get(type);
  if (!model) {
    model = buildModel(type);
    models.set(type, model);
  }
  return model;
}

function buildModel(type: Type): EntityModel {
  const indexed = findAnnotation(parseAnnotations(type.comment), 'Indexed');
  const properties = new Map<string, PropertyModel>();
  let annotatedFields = 0;
  for (const f of type.fieldsArray) {
    const p = propertyOf(f);
    if (p.annotation) annotatedFields++;
    properties.set(f.name, p);
  }
  const name = type.fullName.replace(/^\./, '');
  return {
    name,
    indexed: indexed !== undefined && boolAttr(indexed, 'enabled', true),
    indexName: (indexed && stringAttr(indexed, 'index')) || name,
    properties,
    annotatedFields,
  };
}

function propertyOf(f: Field): PropertyModel {
  f.resolve();
  const resolved = f.resolvedType;
  const annotations = parseAnnotations(f.comment);
  const base: PropertyModel = { name: f.name, kind: 'string', repeated: f.repeated, javaType: 'java.lang.String', flags: noFlags(), embedded: false };
  if (resolved instanceof pb().Enum) {
    Object.assign(base, enumPart(resolved));
  } else if (resolved instanceof pb().Type) {
    const target = resolved;
    Object.assign(base, { kind: 'message', javaType: target.fullName.replace(/^\./, ''), message: () => entityModelOf(target) });
  } else {
    const [kind, javaType] = KINDS[f.type] ?? ['string', 'java.lang.String'];
    Object.assign(base, { kind, javaType });
  }
  const declared = (f.options as Record<string, unknown> | undefined)?.default;
  if (declared !== undefined && !f.repeated) base.defaultValue = base.kind === 'enum' ? base.enumValues?.[String(declared)] ?? Number(declared) : declared as string | number | boolean;
  applyIndexing(base, annotations);
  return base;
}

function enumPart(e: Enum): Partial<PropertyModel> {
  return { kind: 'enum', javaType: 'java.lang.Integer', enumValues: { ...e.values }, enumName: e.fullName.replace(/^\./, '') };
}

function noFlags(): FieldFlags {
  return { searchable: false, projectable: false, sortable: false, aggregable: false, analyzed: false, normalized: false };
}

/** Field flags from the first present annotation (docs/reference/query.md#annotation-attributes table and legacy mapping). */
function applyIndexing(p: PropertyModel, annotations: Annotation[]): void {
  const a = findAnnotation(annotations, ...FIELD_ANNOTATIONS);
  if (!a) return;
  p.annotation = a.name;
  const flags = p.flags;
  if (a.name === 'Field') {
    const analyzed = p.kind === 'string' && boolAttr(a, 'analyze', false);
    const store = boolAttr(a, 'store', false);
    flags.searchable = boolAttr(a, 'index', true);
    flags.projectable = store;
    flags.sortable = (store || findAnnotation(annotations, 'SortableField') !== undefined) && !analyzed;
    flags.analyzed = analyzed;
    if (analyzed) p.analyzer = legacyAnalyzer(a, annotations) ?? 'standard';
  } else {
    flags.searchable = boolAttr(a, 'searchable', true);
    flags.projectable = boolAttr(a, 'projectable', false);
    if (a.name !== 'Text') {
      flags.sortable = boolAttr(a, 'sortable', false);
      flags.aggregable = boolAttr(a, 'aggregable', false);
    }
    if (a.name === 'Text') {
      flags.analyzed = true;
      p.analyzer = stringAttr(a, 'analyzer') ?? 'standard';
    }
    const normalizer = a.name === 'Keyword' ? stringAttr(a, 'normalizer') : undefined;
    if (normalizer) {
      flags.normalized = true;
      p.normalizer = normalizer;
    }
  }
  if (p.kind === 'message') p.embedded = flags.searchable;
}

/** `@Field(analyzer=@Analyzer(definition="x"))` or a field-level `@Analyzer(definition="x")`. */
function legacyAnalyzer(field: Annotation, annotations: Annotation[]): string | undefined {
  const nested = field.attributes.analyzer;
  const a = nested && typeof nested === 'object' && !Array.isArray(nested) ? nested : findAnnotation(annotations, 'Analyzer');
  const definition = a ? stringAttr(a, 'definition') : undefined;
  return definition || undefined;
}
