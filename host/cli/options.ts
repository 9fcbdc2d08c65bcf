import { InvalidArgumentError } from 'commander';

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
