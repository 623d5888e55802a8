import { GridError } from './grid-error';

/** A header key the parser does not know (the original's CacheException → 500, docs/reference/management-plane.md#script-header). */
export class UnknownScriptPropertyError extends GridError {
  constructor(key: string) { super(500, 'UNKNOWN_SCRIPT_PROPERTY', `ISPN027506: Unknown script mode: '${key}'`); }
}

/** No JavaScript engine for the script's `language` / `extension` (IllegalArgumentException → 400). */
export class NoScriptEngineError extends GridError {
  constructor(name: string) { super(400, 'NO_SCRIPT_ENGINE', `ISPN027507: Cannot find an appropriate script engine for script '${name}'`); }
}

export class ScriptParametersNotArrayError extends GridError {
  constructor() {
    super(400, 'SCRIPT_PARAMETERS_NOT_ARRAY', 'ISPN027511: Script parameters must be declared using the unquoted array notation, e.g. [a,b,c]');
  }
}

export class ScriptPropertiesNotObjectError extends GridError {
  constructor() {
    super(400, 'SCRIPT_PROPERTIES_NOT_OBJECT', 'ISPN027513: Script properties must be declared using the unquoted object notation, e.g. {name: value}');
  }
}

/** `mode=` other than local/distributed (the original's `ExecutionMode.valueOf` IllegalArgumentException → 400). */
export class InvalidScriptModeError extends GridError {
  constructor(value: string) {
    super(400, 'INVALID_SCRIPT_MODE', `No enum constant org.infinispan.scripting.impl.ExecutionMode.${value.toUpperCase()}`);
  }
}

/** `GET /tasks/{name}?action=script` of a name never uploaded. */
export class NoSuchScriptError extends GridError {
  constructor(name: string) { super(404, 'NO_SUCH_SCRIPT', `ISPN012048: No such script '${name}'`); }
}

/** `?action=exec` of a name that is neither a script nor a built-in task. */
export class UnknownTaskError extends GridError {
  constructor(name: string) { super(400, 'UNKNOWN_TASK', `ISPN027002: Unknown task '${name}'`); }
}

/** `mode=distributed` needs `cache=` (the original's IllegalStateException → 500). */
export class DistributedTaskWithoutCacheError extends GridError {
  constructor(name: string) { super(500, 'DISTRIBUTED_TASK_WITHOUT_CACHE', `ISPN027509: Distributed script '${name}' invoked without a cache binding`); }
}

/** A script that does not compile, refused at upload (the original finds out when it first runs it). */
export class ScriptCompilationError extends GridError {
  constructor(name: string, detail: string) { super(400, 'SCRIPT_COMPILATION_FAILED', `ISPN027504: Compiler error for script '${name}': ${detail}`); }
}

/** The script threw, ran past its time limit or past its memory limit: 500 with what happened. */
export class ScriptExecutionError extends GridError {
  constructor(detail: string) { super(500, 'SCRIPT_EXECUTION_FAILED', `ISPN027503: Script execution error: ${detail}`); }
}
