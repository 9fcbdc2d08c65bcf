/**
 * Exceptions are for host bugs and bad configuration; anything a hook does
 * comes back as a value (`HookFault`). Every error carries its `cause`.
 */
export class HostError extends Error {
  override name = 'HostError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A configuration file or option is unusable; the message names the file, the path in it and what was expected. */
export class ConfigError extends HostError {
  override name = 'ConfigError';
}

/** A hook cannot be loaded (missing file, digest mismatch, invalid module, refused limits). */
export class HookLoadError extends HostError {
  override name = 'HookLoadError';
}

/** A hook could not be built from source; the message names the file and line. */
export class BuildError extends HostError {
  override name = 'BuildError';
}

/** The model provider failed (script malformed or exhausted, HTTP error). */
export class ProviderError extends HostError {
  override name = 'ProviderError';
}

/** A session log cannot be read or resumed. */
export class SessionLogError extends HostError {
  override name = 'SessionLogError';
}
