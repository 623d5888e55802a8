import { defineError } from './define-error';

/** A header key the parser does not know (the original's CacheException → 500, docs/reference/management-plane.md#script-header). */
export class UnknownScriptPropertyError extends defineError({
  code: 'UNKNOWN_SCRIPT_PROPERTY', status: 500, ispn: 'ISPN027506',
  text: (key: string) => `Unknown script mode: '${key}'`,
}) {}

/** No JavaScript engine for the script's `language` / `extension` (IllegalArgumentException → 400). */
export class NoScriptEngineError extends defineError({
  code: 'NO_SCRIPT_ENGINE', status: 400, ispn: 'ISPN027507',
  text: (name: string) => `Cannot find an appropriate script engine for script '${name}'`,
}) {}

export class ScriptParametersNotArrayError extends defineError({
  code: 'SCRIPT_PARAMETERS_NOT_ARRAY', status: 400, ispn: 'ISPN027511',
  text: () => 'Script parameters must be declared using the unquoted array notation, e.g. [a,b,c]',
}) {}

export class ScriptPropertiesNotObjectError extends defineError({
  code: 'SCRIPT_PROPERTIES_NOT_OBJECT', status: 400, ispn: 'ISPN027513',
  text: () => 'Script properties must be declared using the unquoted object notation, e.g. {name: value}',
}) {}

/** `mode=` other than local/distributed (the original's `ExecutionMode.valueOf` IllegalArgumentException → 400). */
export class InvalidScriptModeError extends defineError({
  code: 'INVALID_SCRIPT_MODE', status: 400,
  text: (value: string) => `No enum constant org.infinispan.scripting.impl.ExecutionMode.${value.toUpperCase()}`,
}) {}

/** `GET /tasks/{name}?action=script` of a name never uploaded. */
export class NoSuchScriptError extends defineError({
  code: 'NO_SUCH_SCRIPT', status: 404, ispn: 'ISPN012048',
  text: (name: string) => `No such script '${name}'`,
}) {}

/** `?action=exec` of a name that is neither a script nor a built-in task. */
export class UnknownTaskError extends defineError({
  code: 'UNKNOWN_TASK', status: 400, ispn: 'ISPN027002',
  text: (name: string) => `Unknown task '${name}'`,
}) {}

/** `mode=distributed` needs `cache=` (the original's IllegalStateException → 500). */
export class DistributedTaskWithoutCacheError extends defineError({
  code: 'DISTRIBUTED_TASK_WITHOUT_CACHE', status: 500, ispn: 'ISPN027509',
  text: (name: string) => `Distributed script '${name}' invoked without a cache binding`,
}) {}

/** A script that does not compile, refused at upload (the original finds out when it first runs it). */
export class ScriptCompilationError extends defineError({
  code: 'SCRIPT_COMPILATION_FAILED', status: 400, ispn: 'ISPN027504',
  text: (name: string, detail: string) => `Compiler error for script '${name}': ${detail}`,
}) {}

/** The script threw, ran past its time limit or past its memory limit: 500 with what happened. */
export class ScriptExecutionError extends defineError({
  code: 'SCRIPT_EXECUTION_FAILED', status: 500, ispn: 'ISPN027503',
  text: (detail: string) => `Script execution error: ${detail}`,
}) {}
