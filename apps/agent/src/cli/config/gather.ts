import fs from 'node:fs';
import path from 'node:path';
import { readConfigFile } from './configFile.ts';
import { ConfigError, SETTINGS, type Raw, type SettingKey, type SettingSpec } from './settings.ts';

/** The settings given, each with where it came from: what messages name and quote. */
export type Given = Partial<Record<SettingKey, Raw>>;

/** Flags over the environment, the environment over the file; empty flags and variables count as unset. */
export function gather(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv, configFile: string | null): Given {
  const file = configFile ? readConfigFile(configFile) : new Map<string, Raw>();
  const given: Given = {};
  for (const [key, spec] of Object.entries(SETTINGS) as [SettingKey, SettingSpec][]) {
    // Commander gives a switch (--allow-writes) as `true`, a valued flag as its text.
    const raw: unknown = spec.flag ? flags[spec.flag.key] : undefined;
    const flag = raw === undefined ? undefined : String(raw);
    const fromEnv = env[spec.name];
    const fromFile = file.get(spec.name);
    if (flag !== undefined && flag !== '') given[key] = { value: flag, from: spec.flag!.text };
    else if (fromEnv !== undefined && fromEnv !== '') given[key] = { value: fromEnv, from: 'environment' };
    else if (fromFile)
      given[key] = spec.path && configFile ? { ...fromFile, value: path.resolve(path.dirname(configFile), fromFile.value) } : fromFile;
  }
  if (given.tokenFile) {
    if (given.token)
      throw new ConfigError([
        `both GP_AGENT_TOKEN (from ${given.token.from}) and GP_AGENT_TOKEN_FILE (from ${given.tokenFile.from}) are set: give one`,
      ]);
    given.token = { value: readTokenFile(given.tokenFile), from: `the token file ${given.tokenFile.value}` };
  }
  return given;
}

/** The token held by a file (its first line; a service manager's credential file has nothing else). */
function readTokenFile(setting: Raw): string {
  try {
    return fs
      .readFileSync(setting.value, 'utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0]!
      .trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError([`GP_AGENT_TOKEN_FILE (from ${setting.from}): ${setting.value} cannot be read (${reason})`]);
  }
}
