/**
 * Starts OpenTelemetry for the command `argv` runs, when it is one of
 * `commands` (the catalog's telemetry commands) and the `OTEL_*`
 * variables turn it on, importing the SDK only then; returns what flushes and
 * stops it (a no-op when it stayed off). Bad `OTEL_*` values throw a
 * `ConfigError` naming the variable.
 */
export async function startCliTelemetry(argv: readonly string[], commands: ReadonlySet<string>, env: NodeJS.ProcessEnv = process.env): Promise<() => Promise<void>> {
  const command = argv.slice(2).find((arg) => !arg.startsWith('-'));
  if (command === undefined || !commands.has(command)) return async () => {};
  // Imported here, not at the top: it pulls in the OpenTelemetry API, which `--help` and most commands never need.
  const { telemetrySettings } = await import('../telemetry/index.ts');
  const settings = telemetrySettings(env);
  if (settings === undefined) return async () => {};
  for (const note of settings.notes) process.stderr.write(`hookbox: ${note}\n`);
  const { startTelemetrySdk } = await import('../telemetry/sdk.ts');
  const sdk = startTelemetrySdk(settings);
  return () => sdk.shutdown();
}
