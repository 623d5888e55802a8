// Texts of the original's configuration errors (core/.../util/logging/Log.java ids 327, 686, 687;
// commons/.../configuration/io ParseUtils), with this server's wording where the original names
// its own version.
import { InvalidConfigurationError } from '../../errors';
import type { TextLocation } from './text-location';

function at([line, column]: TextLocation): string {
  return `[${line},${column}]`;
}

export function unknownElementError(name: string, location: TextLocation): InvalidConfigurationError {
  return new InvalidConfigurationError(
    `ISPN000327: Cannot find a parser for element '${name}' in namespace '' at ${at(location)}. ` +
    'Check that your configuration is up-to-date for this server and you have the proper dependency in the classpath',
  );
}

/**
 * A store the original offers and grid has no engine for (`rocksdb-store`, `string-keyed-jdbc-store`,
 * `remote-store`, …): the original's id and place, then what to do instead of its class-path advice.
 */
export function unsupportedStoreError(name: string, location: TextLocation): InvalidConfigurationError {
  return new InvalidConfigurationError(
    `ISPN000327: Cannot find a parser for element '${name}' in namespace '' at ${at(location)}. ` +
    `grid keeps persistent entries in its own store (SQLite, in the data directory), not in a '${name}': ` +
    `declare 'file-store' (or 'single-file-store', 'soft-index-file-store', which mean the same) instead`,
  );
}

// The original appends the location to the message without a separator (ConfigurationReaderException).
export function unexpectedAttributeError(name: string, location: TextLocation): InvalidConfigurationError {
  return new InvalidConfigurationError(`Unexpected attribute '${name}' encountered${at(location)}`);
}

export function illegalValueError(
  element: string, attribute: string, value: string, location: TextLocation, reason: string,
): InvalidConfigurationError {
  return new InvalidConfigurationError(
    `ISPN000686: Attribute '${attribute}' of element '${element}' has an illegal value '${value}' at ${at(location)}: ${reason}`,
  );
}

export function illegalEnumValueError(
  element: string, attribute: string, value: string, location: TextLocation, allowed: readonly string[],
): InvalidConfigurationError {
  return new InvalidConfigurationError(
    `ISPN000687: Attribute '${attribute}' of element '${element}' has an illegal value '${value}' at ${at(location)}. ` +
    `Expecting one of [${allowed.join(', ')}].`,
  );
}

export function duplicateElementError(name: string, location: TextLocation): InvalidConfigurationError {
  return new InvalidConfigurationError(`Element '${name}' may appear only once, found another at ${at(location)}`);
}

export function reservedNameError(name: string, location: TextLocation): InvalidConfigurationError {
  return new InvalidConfigurationError(`'${name}' is not allowed as a name in a configuration, found at ${at(location)}`);
}
