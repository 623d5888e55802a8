import { UnknownEntityError } from '../../errors';
import type { ProtobufTypes } from '../protobuf/protostream-json';
import { type EntityModel, entityModelOf } from './entity-model';

// loaded on first use, as elsewhere in the model
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));

/**
 * The entity a protostream cache's query names: a registered message type (docs/reference/query.md#semantic-checks:
 * `Unknown type name : X`, and `X is not a message type` for an enum).
 */
export function findProtobufEntity(types: ProtobufTypes, name: string): EntityModel {
  const t = types.find(name);
  if (!t) throw new UnknownEntityError(`Unknown type name : ${name}`);
  if (!(t instanceof pb().Type)) throw new UnknownEntityError(`${name} is not a message type`);
  return entityModelOf(t);
}

/** Java-object caches hold Java values this server has no classes for: every entity is unknown. */
export function findJavaEntity(name: string): EntityModel {
  throw new UnknownEntityError(`ISPN028510: Unknown entity name ${name}`);
}
