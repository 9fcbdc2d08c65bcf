/**
 * The runner's memory budget (memory-budget.ts) on its own: what each
 * instance is charged when idle, queued and running, which instances are
 * evicted to make room (least recently used first, never a pinned one), and
 * the figures a refusal carries. `tests/security/memory-budget.spec.ts`
 * checks the same promises end to end through real plugins and workers.
 */
import { describe, expect, it } from 'vitest';
import { type BudgetEntry, MemoryBudget, defaultMemoryBudgetBytes, mib } from '../../host/runner/memory-budget.ts';

const MIB = 1_048_576;

interface TestEntry extends BudgetEntry {
  readonly name: string;
  evicted: string[];
  dead: boolean;
}

function entry(name: string, capBytes: number, bytes = 0): TestEntry {
  const self: TestEntry = {
    name,
    bytes,
    capBytes,
    pinned: 0,
    running: false,
    evicted: [],
    dead: false,
    evict: (reason) => self.evicted.push(reason),
    gone: () => self.dead,
  };
  return self;
}

/** Pins, runs and settles one call of `e`, which reports `reported` bytes afterwards. */
function callOnce(budget: MemoryBudget, e: BudgetEntry, reported: number | undefined): ReturnType<MemoryBudget['run']> {
  budget.pin(e);
  const refusal = budget.run(e);
  budget.settle(e, reported);
  return refusal;
}

describe('MemoryBudget accounting', () => {
  it('charges an idle instance its reported size, a running one its cap, and the reported size again after', () => {
    const budget = new MemoryBudget(100 * MIB);
    const a = entry('a', 10 * MIB);
    budget.pin(a);
    expect(budget.instances).toBe(1);
    expect(budget.usedBytes).toBe(0); // queued: its size before it exists (0), not its cap
    expect(a.pinned).toBe(1);
    expect(budget.run(a)).toBeUndefined();
    expect(a.running).toBe(true);
    expect(budget.usedBytes).toBe(10 * MIB);
    expect(budget.run(a)).toBeUndefined(); // already running: not charged twice
    expect(budget.usedBytes).toBe(10 * MIB);
    budget.settle(a, 3 * MIB);
    expect(a.running).toBe(false);
    expect(a.pinned).toBe(0);
    expect(a.bytes).toBe(3 * MIB);
    expect(budget.usedBytes).toBe(3 * MIB);
  });

  it('keeps the cap when the size after the call is unknown, and never charges more than the cap', () => {
    const budget = new MemoryBudget(100 * MIB);
    const unknown = entry('unknown', 8 * MIB);
    callOnce(budget, unknown, undefined);
    expect(unknown.bytes).toBe(8 * MIB);
    const over = entry('over', 4 * MIB);
    callOnce(budget, over, 9 * MIB);
    expect(over.bytes).toBe(4 * MIB);
    expect(budget.usedBytes).toBe(12 * MIB);
  });

  it('settling a call that never ran only unpins it, and never below zero', () => {
    const budget = new MemoryBudget(100 * MIB);
    const a = entry('a', 10 * MIB, 2 * MIB);
    budget.pin(a);
    budget.pin(a);
    expect(a.pinned).toBe(2);
    expect(budget.usedBytes).toBe(2 * MIB); // one charge per instance, not per queued call
    budget.settle(a, 7 * MIB); // not running: the report is ignored
    expect(a.bytes).toBe(2 * MIB);
    expect(a.pinned).toBe(1);
    budget.settle(a, undefined);
    budget.settle(a, undefined);
    expect(a.pinned).toBe(0);
    expect(budget.usedBytes).toBe(2 * MIB);
  });

  it('release stops charging an instance (running or not) and forgets it; a second release and a settle after it change nothing', () => {
    const budget = new MemoryBudget(100 * MIB);
    const a = entry('a', 10 * MIB, 1 * MIB);
    const b = entry('b', 20 * MIB, 5 * MIB);
    budget.pin(a);
    budget.pin(b);
    budget.run(b);
    expect(budget.usedBytes).toBe(21 * MIB);
    budget.release(b);
    expect(b.running).toBe(false);
    expect(b.pinned).toBe(0);
    expect(budget.usedBytes).toBe(1 * MIB);
    expect(budget.instances).toBe(1);
    budget.release(b);
    budget.settle(b, 3 * MIB);
    expect(budget.usedBytes).toBe(1 * MIB);
    expect(b.bytes).toBe(5 * MIB);
    expect(b.pinned).toBe(0);
  });

  it('refuses to run an instance it does not know, with its cap as the need and what is held as pinned', () => {
    const budget = new MemoryBudget(50 * MIB);
    const held = entry('held', 10 * MIB, 4 * MIB);
    budget.pin(held);
    const stranger = entry('stranger', 10 * MIB);
    expect(budget.run(stranger)).toEqual({ neededBytes: 10 * MIB, budgetBytes: 50 * MIB, pinnedBytes: 4 * MIB });
    expect(stranger.running).toBe(false);
    expect(budget.usedBytes).toBe(4 * MIB);
  });
});

describe('MemoryBudget room', () => {
  it('fits a charge that lands exactly on the budget without evicting anyone', () => {
    const budget = new MemoryBudget(30 * MIB);
    const a = entry('a', 10 * MIB, 10 * MIB);
    const b = entry('b', 20 * MIB);
    callOnce(budget, a, 10 * MIB);
    budget.pin(b);
    expect(budget.run(b)).toBeUndefined();
    expect(budget.usedBytes).toBe(30 * MIB);
    expect(a.evicted).toEqual([]);
    expect(budget.evictions).toBe(0);
  });

  it('evicts idle instances least recently used first, only as many as needed, with the reason for the log', () => {
    const budget = new MemoryBudget(40 * MIB);
    const [a, b, c] = [entry('a', 10 * MIB), entry('b', 10 * MIB), entry('c', 10 * MIB)];
    for (const e of [a, b, c]) callOnce(budget, e, 10 * MIB);
    // a is used again: b is now the least recently used.
    callOnce(budget, a, 10 * MIB);
    expect(budget.usedBytes).toBe(30 * MIB);
    const d = entry('d', 25 * MIB);
    budget.pin(d);
    expect(budget.run(d)).toBeUndefined();
    expect(b.evicted).toEqual([
      "instance dropped to stay within the runner's memory budget (40 MiB); this session's state (Var) is lost",
    ]);
    expect(c.evicted).toHaveLength(1);
    expect(a.evicted).toEqual([]);
    expect(budget.evictions).toBe(2);
    expect(budget.instances).toBe(2);
    expect(budget.usedBytes).toBe(35 * MIB);
  });

  it('stops evicting as soon as the charge fits exactly', () => {
    const budget = new MemoryBudget(40 * MIB);
    const [a, b, c] = [entry('a', 10 * MIB), entry('b', 10 * MIB), entry('c', 10 * MIB)];
    for (const e of [a, b, c]) callOnce(budget, e, 10 * MIB);
    // 30 held + 20 needed: evicting a (the least recently used) lands exactly on 40.
    const d = entry('d', 20 * MIB);
    budget.pin(d);
    expect(budget.run(d)).toBeUndefined();
    expect(a.evicted).toHaveLength(1);
    expect(b.evicted).toEqual([]);
    expect(c.evicted).toEqual([]);
    expect(budget.evictions).toBe(1);
    expect(budget.instances).toBe(3);
    expect(budget.usedBytes).toBe(40 * MIB);
  });

  it('makes room when evicting every idle instance lands exactly on the budget, passing over a pinned one used less recently', () => {
    const budget = new MemoryBudget(30 * MIB);
    const queued = entry('queued', 10 * MIB, 10 * MIB);
    budget.pin(queued);
    const idle = entry('idle', 10 * MIB);
    callOnce(budget, idle, 10 * MIB);
    // 10 pinned + 20 needed = 30: room, once `idle` goes.
    const big = entry('big', 20 * MIB);
    budget.pin(big);
    expect(budget.run(big)).toBeUndefined();
    expect(idle.evicted).toHaveLength(1);
    expect(queued.evicted).toEqual([]);
    expect(budget.usedBytes).toBe(30 * MIB);
  });

  it('never evicts an instance with a call queued or running; refuses when only those hold the memory, and changes nothing', () => {
    const budget = new MemoryBudget(30 * MIB);
    const busy = entry('busy', 20 * MIB);
    const idle = entry('idle', 10 * MIB);
    callOnce(budget, idle, 6 * MIB);
    budget.pin(busy);
    budget.run(busy);
    expect(budget.usedBytes).toBe(26 * MIB);
    const queued = entry('queued', 8 * MIB, 2 * MIB);
    budget.pin(queued);
    expect(budget.usedBytes).toBe(28 * MIB);
    const big = entry('big', 12 * MIB);
    budget.pin(big);
    // Evicting `idle` (6) frees 6 of the 10 needed past 20: the 22 MiB pinned (busy 20 + queued 2) leave no room.
    expect(budget.run(big)).toEqual({ neededBytes: 12 * MIB, budgetBytes: 30 * MIB, pinnedBytes: 22 * MIB });
    expect(idle.evicted).toEqual([]);
    expect(budget.evictions).toBe(0);
    expect(big.running).toBe(false);
    expect(budget.usedBytes).toBe(28 * MIB);
    // Once the running call is over (busy back to 1 MiB), the same charge fits: 6 + 1 + 2 + 12 = 21.
    budget.settle(busy, 1 * MIB);
    expect(budget.run(big)).toBeUndefined();
    expect(idle.evicted).toEqual([]);
    expect(budget.usedBytes).toBe(21 * MIB);
  });

  it('counts only the extra over what a running instance already holds', () => {
    const budget = new MemoryBudget(20 * MIB);
    const a = entry('a', 16 * MIB, 12 * MIB);
    const other = entry('other', 16 * MIB, 6 * MIB);
    budget.pin(other);
    budget.settle(other, undefined);
    budget.pin(a);
    // 12 + 6 = 18 now; running a needs 4 more: 22 > 20, so `other` (idle) is evicted.
    expect(budget.run(a)).toBeUndefined();
    expect(other.evicted).toHaveLength(1);
    expect(budget.usedBytes).toBe(16 * MIB);
  });

  it('forgets instances whose worker died before making room, without evicting them', () => {
    const budget = new MemoryBudget(20 * MIB);
    const a = entry('a', 10 * MIB);
    const b = entry('b', 10 * MIB);
    callOnce(budget, a, 10 * MIB);
    budget.pin(b);
    budget.run(b);
    b.dead = true; // still pinned and running, but its memory went with its worker
    const c = entry('c', 10 * MIB);
    budget.pin(c);
    expect(budget.run(c)).toBeUndefined();
    expect(b.evicted).toEqual([]);
    expect(a.evicted).toEqual([]);
    expect(budget.instances).toBe(2);
    expect(budget.usedBytes).toBe(20 * MIB);
    expect(budget.evictions).toBe(0);
  });

  it('a refusal names the need, the budget and the pinned bytes; the message figures are MiB with one decimal when not whole', () => {
    const budget = new MemoryBudget(10 * MIB);
    const pinned = entry('pinned', 8 * MIB, 3 * MIB);
    budget.pin(pinned);
    const e = entry('e', 9 * MIB);
    budget.pin(e);
    expect(budget.run(e)).toEqual({ neededBytes: 9 * MIB, budgetBytes: 10 * MIB, pinnedBytes: 3 * MIB });
    expect(mib(10 * MIB)).toBe('10');
    expect(mib(1.5 * MIB)).toBe('1.5');
    expect(mib(MIB + 1)).toBe('1.0');
    const odd = new MemoryBudget(1.5 * MIB);
    const x = entry('x', MIB);
    callOnce(odd, x, MIB);
    const y = entry('y', MIB);
    odd.pin(y);
    odd.run(y);
    expect(x.evicted[0]).toContain('(1.5 MiB)');
  });

  it('defaults to the smaller of 1 GiB and a quarter of RAM', async () => {
    const { totalmem } = await import('node:os');
    expect(defaultMemoryBudgetBytes()).toBe(Math.min(1024 * MIB, Math.floor(totalmem() / 4)));
    expect(defaultMemoryBudgetBytes()).toBeLessThanOrEqual(1024 * MIB);
  });
});
