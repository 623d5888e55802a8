/** A bad setting: the CLI prints the message and exits with code 2. */
export class ConfigError extends Error {}
