import type { Command } from 'commander';
import { ConfigError } from '../errors.ts';
import type { ModelProvider } from '../loop/index.ts';
import { OpenAIProvider } from '../providers/openai.ts';
import { ScriptedProvider, loadScript } from '../providers/scripted.ts';

export interface ProviderFlags {
  readonly provider?: string;
  readonly script?: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKeyEnv?: string;
}

/** Adds the model-provider flags shared by `run` (and editors' entry points). */
export function addProviderOptions(command: Command): Command {
  return command
    .option('--provider <name>', 'scripted (replays --script) or openai (any OpenAI-compatible endpoint)', 'scripted')
    .option('--script <file>', 'script of assistant steps for the scripted provider')
    .option('--base-url <url>', 'chat-completions base URL (env HOOKBOX_BASE_URL; e.g. https://api.deepseek.com/v1)')
    .option('--model <name>', 'model name (env HOOKBOX_MODEL)')
    .option('--api-key-env <name>', 'environment variable holding the API key', 'OPENAI_API_KEY');
}

export function createProvider(flags: ProviderFlags, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  if (flags.provider === undefined || flags.provider === 'scripted') {
    if (flags.script === undefined) {
      throw new ConfigError('the scripted provider needs --script FILE (or use --provider openai with --base-url and --model)');
    }
    return new ScriptedProvider(loadScript(flags.script));
  }
  if (flags.provider === 'openai') {
    const baseURL = flags.baseUrl ?? env.HOOKBOX_BASE_URL;
    const model = flags.model ?? env.HOOKBOX_MODEL;
    if (baseURL === undefined) throw new ConfigError('--provider openai needs --base-url URL (or HOOKBOX_BASE_URL)');
    if (model === undefined) throw new ConfigError('--provider openai needs --model NAME (or HOOKBOX_MODEL)');
    const keyEnv = flags.apiKeyEnv ?? 'OPENAI_API_KEY';
    return new OpenAIProvider({ baseURL, model, apiKey: env[keyEnv], apiKeySource: `the ${keyEnv} environment variable` });
  }
  throw new ConfigError(`unknown --provider "${flags.provider}": expected scripted or openai`);
}
