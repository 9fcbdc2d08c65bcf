import { type Command, CommanderError, InvalidArgumentError } from 'commander';

/**
 * The one parser of integer flags: a commander argument parser accepting
 * whole numbers of at least `min`. A bad value is a usage error naming the
 * flag (commander prints it and exits 1).
 */
export function integerOption(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected an integer >= ${min}`);
    return n;
  };
}

/**
 * Makes a command's usage errors (unknown option, missing argument, bad
 * value) exit 2 after commander's one line, like every other bad input, with
 * no help text after it; help and version keep exit 0. For commands whose
 * exit 1 means something else (`verify`: a hook changed; `add`: declined).
 */
export function usageErrorsExitTwo(command: Command): Command {
  return command.showHelpAfterError(false).exitOverride((error) => {
    throw error.exitCode === 0 ? error : new CommanderError(2, error.code, error.message);
  });
}
