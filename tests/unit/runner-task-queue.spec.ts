import { describe, expect, it } from 'vitest';
import { TaskQueue } from '../../host/runner/task-queue.ts';

// A worker's serial queue (host/runner/task-queue.ts) on its own: one task at a time, session
// work before warm-up work, and a flush that lets every waiting task settle. The tasks are plain
// promises the test resolves, so the order is the queue's and nothing else's.

/** A task the test finishes by hand, recording when it started. */
function gated(label: string, started: string[]): { task: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      started.push(label);
      await done;
      return label;
    },
    finish: () => finish(),
  };
}

describe('task queue', () => {
  it('starts a task at once when idle, and the next only after it settles', async () => {
    const queue = new TaskQueue();
    const started: string[] = [];
    const first = gated('first', started);
    const second = gated('second', started);
    const results = [queue.run('normal', first.task), queue.run('normal', second.task)];
    expect(started).toEqual(['first']);
    expect(queue.waiting).toBe(1);
    await Promise.resolve();
    expect(started).toEqual(['first']);
    first.finish();
    await expect(results[0]).resolves.toBe('first');
    expect(started).toEqual(['first', 'second']);
    expect(queue.waiting).toBe(0);
    second.finish();
    await expect(results[1]).resolves.toBe('second');
  });

  it('runs waiting normal tasks before waiting background ones, each line in order', async () => {
    const queue = new TaskQueue();
    const started: string[] = [];
    const running = gated('running', started);
    const all = [
      queue.run('background', running.task),
      queue.run('background', async () => void started.push('warm-1')),
      queue.run('normal', async () => void started.push('session-1')),
      queue.run('background', async () => void started.push('warm-2')),
      queue.run('normal', async () => void started.push('session-2')),
    ];
    // Only normal tasks count as waiting: the worker polls for the next call, not for warm-up.
    expect(queue.waiting).toBe(2);
    running.finish();
    await Promise.all(all);
    expect(started).toEqual(['running', 'session-1', 'session-2', 'warm-1', 'warm-2']);
  });

  it('a task that throws rejects its own promise and the next one still runs', async () => {
    const queue = new TaskQueue();
    const failing = queue.run('normal', () => Promise.reject(new Error('task failed')));
    const next = queue.run('normal', async () => 'next ran');
    await expect(failing).rejects.toThrow('task failed');
    await expect(next).resolves.toBe('next ran');
  });

  it('flush starts every waiting task at once, normal ones first, without waiting for the running one', async () => {
    const queue = new TaskQueue();
    const started: string[] = [];
    const running = gated('running', started);
    const first = queue.run('normal', running.task);
    const waiting = [
      queue.run('background', async () => void started.push('warm')),
      queue.run('normal', async () => void started.push('session')),
    ];
    queue.flush();
    await Promise.all(waiting);
    expect(started).toEqual(['running', 'session', 'warm']);
    expect(queue.waiting).toBe(0);
    running.finish();
    await expect(first).resolves.toBe('running');
  });
});
