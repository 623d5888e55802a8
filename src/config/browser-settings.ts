import { hostCheckNames } from './allowed-hosts';
import { CORS_ALLOW_PROPERTY, type CorsRuleConfig, parseCorsAllow } from './cors-rules';
import type { ServerConfig } from './server-config';

export interface BrowserSettingsConfig {
  cors: { allowAll: string[]; rules: CorsRuleConfig[] };
  allowedHosts: string[] | undefined;
}

/**
 * What browsers may do, from the configuration: CORS (the `cors-allow` property, then the
 * configured rules) and the Host check. Invalid `cors-allow` origins are reported through `warn`
 * and ignored, as the original does; so is nothing else (rules were validated when read).
 */
export function browserSettingsOf(config: ServerConfig, warn: (fields: Record<string, unknown>, message: string) => void): BrowserSettingsConfig {
  const { origins, invalid } = parseCorsAllow(config.properties[CORS_ALLOW_PROPERTY]);
  for (const origin of invalid) warn({ origin, property: CORS_ALLOW_PROPERTY }, 'invalid origin ignored (expected scheme://host[:port])');
  for (const rule of config.corsRules) {
    if (rule.allowCredentials && rule.allowedOrigins.includes('*')) {
      warn({ rule: rule.name }, 'CORS rule lets every web site send requests with the user\'s credentials and read the answers');
    }
  }
  return { cors: { allowAll: origins, rules: config.corsRules }, allowedHosts: hostCheckNames(config.host, config.allowedHosts) };
}
